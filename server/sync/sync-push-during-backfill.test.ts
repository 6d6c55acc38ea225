import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailListResponseSchema } from "../../contract/mail.ts";
import { emails } from "../db/schema.ts";
import { PEOPLE } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { expectedIds, type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

/**
 * Issue #4: mail is kept current within seconds, also while a long initial backfill is still
 * running. The engine runs with its production lease wait, backfill budget and job polling; the
 * backfill is made slow the way real providers make it slow: Gmail's per-user quota (15,000 units
 * a minute, on in the emulator and in our limiter), Graph's latency.
 *
 * The 2 s push-to-visible target is measured by bench/sync/push-latency.ts; a fixed 2 s bound here
 * measured the CI machine (2.5 s once on a loaded 2-core runner). The bound below still fails the
 * bug this guards against: pushes queued behind the backfill took 17 to 115 s.
 */
const PUSHES = 3;
const MEDIAN_BOUND_MS = 2_000;
const MAX_BOUND_MS = 6_000;
const CASES = [
  // 1,500 messages cost 7,500+ units: about 20 s at Gmail's quota after the first burst.
  { provider: "gmail", email: PEOPLE.priya, key: "id", count: 1_500, latencyMs: 0 },
  // Graph pages the inbox 50 at a time (then pages the same mail again looking for archived
  // mail); at 100 ms a request 3,000 messages take 15 to 25 s.
  { provider: "outlook", email: PEOPLE.casey, key: "graphId", count: 3_000, latencyMs: 100 },
] as const;

// Each provider on one backend (the engine's lease and job handling is the same code on both): the
// four combinations took 85-112 s of the unit stage for no more coverage.
const RUNS = BACKENDS.map((kind, i) => ({ kind, cases: CASES.filter((_, c) => c === i % CASES.length) }));

describe.each(RUNS)("push during a long backfill on $kind", ({ kind, cases }) => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture(kind, {}, { engineDefaults: true });
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  it.each(cases)(
    "$provider: new mail is visible within seconds while the backfill runs; the pass still converges",
    async ({ provider, email, key, count, latencyMs }) => {
      const enc = encodeURIComponent(email);
      await f.admin("POST", `mailboxes/${enc}/generate`, { count, seed: 11, days: 60 });
      if (latencyMs > 0) {
        await f.admin("PUT", "mail/faults", {
          latencyMs,
          provider: provider === "gmail" ? "google" : "microsoft",
        });
      }
      try {
        const started = Date.now();
        const { accountId, token } = await f.signIn(provider, email);
        // Push reaches us only once the watch (Gmail) or subscription (Graph) exists.
        await waitUntil(
          async () => (await f.state(accountId))?.pushExpiresAt ?? undefined,
          60_000,
          "push channel",
        );
        const watchMs = Date.now() - started;
        expect((await f.state(accountId))?.backfillDone).toBe(false);

        const db = f.database.database.db;
        const latencies: number[] = [];
        for (let i = 0; i < PUSHES; i++) {
          const added = await f.admin("POST", `mailboxes/${enc}/messages`, {
            from: { name: "Robin", address: "robin@example.org" },
            subject: `While you were syncing ${i}`,
            text: "Are you there?",
          });
          const addedAt = Date.now();
          const providerId = (added.json as { id: string; graphId: string })[key];
          await waitUntil(
            async () => {
              const [row] = await db
                .select({ id: emails.id })
                .from(emails)
                .where(and(eq(emails.accountId, accountId), eq(emails.providerId, providerId)));
              return row;
            },
            30_000,
            `pushed message ${i}`,
          );
          latencies.push(Date.now() - addedAt);
          // Different moments of the backfill's page cycle.
          await new Promise((r) => setTimeout(r, 700 + i * 450));
        }
        const during = await f.state(accountId);
        console.info(
          `[sync] ${kind} ${provider}: push channel after ${watchMs} ms; push-to-visible during backfill ` +
            `${latencies.join(", ")} ms (synced ${during?.syncedCount} of ~${count}, backfill done: ${during?.backfillDone})`,
        );
        // Every push landed while the pass was still listing older mail.
        expect(during?.backfillDone).toBe(false);

        const list = await fetch(`${f.url}/api/emails?limit=10`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const subjects = emailListResponseSchema.parse(await list.json()).emails.map((e) => e.subject);
        for (let i = 0; i < PUSHES; i++) expect(subjects).toContain(`While you were syncing ${i}`);

        await waitUntil(async () => (await f.state(accountId))?.backfillDone, 120_000, "backfill");
        console.info(`[sync] ${kind} ${provider}: backfill done ${Date.now() - started} ms after sign-in`);
        // Generated mail is all inbox mail within the window, so every message is in scope; the
        // admin listing stops at the newest 1,000, which must all be there.
        const box = (await f.admin("GET", `mailboxes/${enc}?limit=1`)).json as { messagesTotal: number };
        const ids = (await f.rows(accountId)).map((r) => r.providerId);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(box.messagesTotal);
        const have = new Set(ids);
        for (const id of expectedIds(await f.mailbox(email), provider, 90)) expect(have.has(id)).toBe(true);
        const sorted = [...latencies].sort((a, b) => a - b);
        expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(MEDIAN_BOUND_MS);
        expect(sorted[sorted.length - 1]).toBeLessThan(MAX_BOUND_MS);
      } finally {
        await f.admin("POST", "mail/faults/reset");
      }
    },
    180_000,
  );
});
