import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "../../contract/errors.ts";
import { ProviderRequestError } from "../providers/http/errors.ts";
import type { MailProviderClient } from "../providers/mail-provider.ts";
import { PEOPLE } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { expectedIds, type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";
import { GRAPH_WEBHOOK_REQUESTS_PER_MINUTE, MAX_GRAPH_NOTIFICATIONS } from "../webhooks/graph-webhook.ts";
import { sha256Hex } from "./push-secrets.ts";

async function expectConverged(
  f: SyncFixture,
  accountId: string,
  provider: "gmail" | "outlook",
  email: string,
) {
  const expected = expectedIds(await f.mailbox(email), provider, 90);
  const ids = (await f.rows(accountId)).map((r) => r.providerId);
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set(ids)).toEqual(expected);
}

/** A client whose listMessages dies like a killed process after `pages` successful pages. */
function crashAfter(pages: number) {
  let served = 0;
  return (client: MailProviderClient): MailProviderClient => ({
    ...client,
    async listMessages(opts) {
      if (served >= pages) throw new ProviderRequestError("permanent", "simulated crash");
      served += 1;
      return client.listMessages(opts);
    },
  });
}

describe.each(BACKENDS)("interrupted sync on %s", (kind) => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture(kind);
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  it.each([
    ["gmail", PEOPLE.priya],
    ["outlook", PEOPLE.casey],
  ] as const)(
    "%s: a backfill killed after 2 pages resumes and converges with no duplicates",
    async (provider, email) => {
      await f.admin("POST", `mailboxes/${encodeURIComponent(email)}/generate`, {
        count: 900,
        seed: 3,
        days: 60,
      });
      f.wrap.current = crashAfter(2);
      const { accountId } = await f.signIn(provider, email);
      // The first page (50) and one backfill page land; the next listing "crashes" and the job
      // gives up.
      const stuck = await waitUntil(
        async () => {
          const s = await f.state(accountId);
          return s && s.syncedCount > 50 && !s.backfillDone && s.lastError ? s : undefined;
        },
        15_000,
        "crash",
      );
      expect(stuck.backfillPageToken).toBeTruthy();
      const partial = await f.rows(accountId);
      expect(partial.length).toBe(stuck.syncedCount);
      expect(partial.length).toBeLessThan(900);

      // "Restart": a healthy client; the poller (or any trigger) resumes from the stored page token.
      f.wrap.current = undefined;
      await f.services.sync.service.requestSync(accountId, "manual");
      await waitUntil(async () => (await f.state(accountId))?.backfillDone, 30_000, "resumed backfill");
      await expectConverged(f, accountId, provider, email);
    },
    60_000,
  );
});

describe("provider faults (pglite)", () => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture("pglite");
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  it.each([
    ["gmail", PEOPLE.sam],
    ["outlook", PEOPLE.jordan],
  ] as const)(
    "%s: 5xx, dropped connections, quota/throttling and an expired token lose and double nothing",
    async (provider, email) => {
      const enc = encodeURIComponent(email);
      await f.admin("POST", `mailboxes/${enc}/generate`, { count: 250, seed: 11, days: 60 });
      await f.admin("PUT", "mail/faults", {
        errorRate: 0.15,
        dropRate: 0.05,
        gmailQuota: { enabled: true, unitsPerMinute: 6000 },
        graphThrottle: { enabled: true, maxConcurrent: 2, perTenMinutes: 400 },
      });
      try {
        const { accountId } = await f.signIn(provider, email);
        await waitUntil(async () => ((await f.state(accountId))?.syncedCount ?? 0) > 0, 30_000, "first page");
        await f.admin("POST", "tokens/expire", { email });
        await waitUntil(
          async () => (await f.state(accountId))?.backfillDone,
          60_000,
          "backfill under faults",
        );
        // Changes while faults continue.
        const box = await f.mailbox(email);
        for (const m of box.slice(0, 3)) await f.admin("DELETE", `mailboxes/${enc}/messages/${m.id}`);
        for (const m of box.slice(3, 6))
          await f.admin("POST", `mailboxes/${enc}/messages/${m.id}/modify`, { removeLabelIds: ["UNREAD"] });
        await f.admin("POST", "mail/faults/reset");
        await f.services.sync.service.requestSync(accountId, "manual");
        await waitUntil(
          async () => {
            const expected = expectedIds(await f.mailbox(email), provider, 90);
            const rows = await f.rows(accountId);
            return rows.length === expected.size && rows.every((r) => expected.has(r.providerId));
          },
          30_000,
          "convergence after faults",
        );
        await expectConverged(f, accountId, provider, email);
      } finally {
        await f.admin("POST", "mail/faults/reset");
      }
    },
    120_000,
  );

  it("reauth: a revoked grant stops the sync with status reauth_required", async () => {
    const { accountId, userId } = await f.signIn("gmail", PEOPLE.alex);
    await waitUntil(async () => (await f.state(accountId))?.generation, 15_000, "initial pass");
    await f.admin("POST", "tokens/revoke", { email: PEOPLE.alex, provider: "google" });
    await f.admin("POST", "tokens/expire", { email: PEOPLE.alex });
    await f.services.sync.service.requestSync(accountId, "manual");
    await waitUntil(async () => (await f.state(accountId))?.status === "reauth_required", 15_000, "reauth");
    const [status] = await f.services.sync.service.syncStatus(userId);
    expect(status?.status).toBe("reauth_required");
  }, 30_000);
});

describe("push webhooks (pglite)", () => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture("pglite");
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  const gmailBody = (emailAddress: string) => ({
    message: { data: Buffer.from(JSON.stringify({ emailAddress, historyId: "1" })).toString("base64") },
  });

  it("Gmail: a wrong or missing token is refused with 403 in our error shape", async () => {
    for (const query of ["?token=wrong", ""]) {
      const response = await fetch(`${f.url}/api/webhooks/gmail${query}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(gmailBody(PEOPLE.alex)),
      });
      expect(response.status).toBe(403);
      expect(apiErrorSchema.parse(await response.json()).error.code).toBe("forbidden");
    }
  });

  it("Gmail: the right token enqueues a sync of that account and answers 204", async () => {
    const { accountId } = await f.signIn("gmail", PEOPLE.priya);
    await waitUntil(async () => (await f.state(accountId))?.backfillDone, 15_000, "initial sync");
    await f.admin("POST", `mailboxes/${encodeURIComponent(PEOPLE.priya)}/messages`, {
      from: { address: "x@example.org" },
      subject: "pushed",
      text: "hi",
    });
    const response = await fetch(`${f.url}/api/webhooks/gmail?token=${f.env.PUSH_WEBHOOK_SECRET}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(gmailBody(PEOPLE.priya.toUpperCase())),
    });
    expect(response.status).toBe(204);
    await waitUntil(
      async () => (await f.rows(accountId)).some((r) => r.subject === "pushed"),
      5_000,
      "pushed row",
    );
  }, 30_000);

  it("Graph: echoes the validation token as text/plain", async () => {
    const response = await fetch(
      `${f.url}/api/webhooks/graph?validationToken=${encodeURIComponent("abc 123:xyz")}`,
      {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "",
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("abc 123:xyz");
  });

  it("Graph: a notification with the wrong clientState is ignored; the right one enqueues a sync", async () => {
    const { accountId } = await f.signIn("outlook", PEOPLE.casey);
    const state = await waitUntil(
      async () => {
        const s = await f.state(accountId);
        return s?.pushSubscriptionId && s.backfillDone ? s : undefined;
      },
      15_000,
      "subscription",
    );
    const notify = (clientState: string) =>
      fetch(`${f.url}/api/webhooks/graph`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          value: [{ subscriptionId: state.pushSubscriptionId, clientState, changeType: "created" }],
        }),
      });
    const wrong = await notify("not-the-client-state");
    expect(wrong.status).toBe(202);
    expect((await f.state(accountId))?.queuedAt).toBeNull();

    const right = await notify(f.services.pushSecrets.graphClientState(accountId));
    expect(right.status).toBe(202);
    expect(sha256Hex(f.services.pushSecrets.graphClientState(accountId))).toBe(state.pushClientStateHash);
    // The push job starts at once in this process (wake), so wait for the sync it ran.
    await waitUntil(
      async () =>
        ((await f.state(accountId))?.lastSyncedAt?.getTime() ?? 0) > (state.lastSyncedAt?.getTime() ?? 0),
      5_000,
      "push sync",
    );
  }, 30_000);

  it("Graph: a forged clientState for a real account is dropped; more than 100 notifications are refused", async () => {
    const { accountId } = await f.signIn("outlook", PEOPLE.jordan);
    const real = f.services.pushSecrets.graphClientState(accountId);
    expect(f.services.pushSecrets.graphAccountOf(real)).toBe(accountId);
    // The account id is public-ish (it appears in URLs); the MAC is what proves the sender.
    for (const forged of [`${accountId}.${"A".repeat(43)}`, accountId, `${accountId}.`, "", "x.y"]) {
      expect(f.services.pushSecrets.graphAccountOf(forged)).toBeNull();
    }
    const post = (value: object[]) =>
      fetch(`${f.url}/api/webhooks/graph`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ value }),
      });
    const tooMany = await post(
      Array.from({ length: MAX_GRAPH_NOTIFICATIONS + 1 }, () => ({ subscriptionId: "s", clientState: real })),
    );
    expect(tooMany.status).toBe(413);
    expect(apiErrorSchema.parse(await tooMany.json()).error.code).toBe("payload_too_large");
    expect((await post([{ subscriptionId: "s", clientState: real }])).status).toBe(202);
  }, 30_000);

  it("Graph: one address gets a limited number of requests per minute", async () => {
    let limited: Response | undefined;
    for (let i = 0; i <= GRAPH_WEBHOOK_REQUESTS_PER_MINUTE && !limited; i++) {
      const response = await fetch(`${f.url}/api/webhooks/graph`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ value: [{ subscriptionId: "s", clientState: "forged" }] }),
      });
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(202);
    }
    expect(limited?.status).toBe(429);
    expect(apiErrorSchema.parse(await limited?.json()).error.code).toBe("rate_limited");
  }, 30_000);
});

describe("two workers on one PostgreSQL database", () => {
  it("never sync the same account at the same time", async () => {
    const f = await startSyncFixture("postgres");
    try {
      // Counts distinct client instances (one per sync run) busy at once: a run may overlap its
      // own calls (the backfill prefetches the next page), but two runs must never overlap.
      const busy = new Map<string, Map<number, number>>();
      let maxSeen = 0;
      let calls = 0;
      let nextClient = 0;
      const probe = (client: MailProviderClient, account: { id: string }): MailProviderClient => {
        const me = nextClient++;
        const track =
          <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
          async (...args: A): Promise<R> => {
            const runs = busy.get(account.id) ?? new Map<number, number>();
            busy.set(account.id, runs);
            runs.set(me, (runs.get(me) ?? 0) + 1);
            maxSeen = Math.max(maxSeen, runs.size);
            calls += 1;
            try {
              await new Promise((r) => setTimeout(r, 20));
              return await fn(...args);
            } finally {
              const left = (runs.get(me) ?? 1) - 1;
              if (left === 0) runs.delete(me);
              else runs.set(me, left);
            }
          };
        return {
          ...client,
          listMessages: track(client.listMessages.bind(client)),
          listChanges: track(client.listChanges.bind(client)),
          getCursor: track(client.getCursor.bind(client)),
        };
      };
      f.wrap.current = probe;
      const second = await f.extraServices("worker", probe);
      const { accountId } = await f.signIn("gmail", PEOPLE.sam);
      await f.admin("POST", `mailboxes/${encodeURIComponent(PEOPLE.sam)}/generate`, {
        count: 900,
        seed: 5,
        days: 30,
      });
      // Triggers from both processes while the pass runs.
      for (let i = 0; i < 10; i++) {
        await f.services.sync.service.requestSync(accountId, "manual");
        await second.services.sync.service.requestSync(accountId, "push");
        await new Promise((r) => setTimeout(r, 150));
      }
      await waitUntil(async () => (await f.state(accountId))?.backfillDone, 30_000, "backfill");
      expect(calls).toBeGreaterThanOrEqual(3);
      expect(maxSeen).toBe(1);
      const ids = (await f.rows(accountId)).map((r) => r.providerId);
      expect(new Set(ids).size).toBe(ids.length);
      await second.close();
    } finally {
      await f.close();
    }
  }, 60_000);
});
