import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUCKETS } from "../../contract/buckets.ts";
import { syncStatusSchema } from "../../contract/mail.ts";
import { PEOPLE } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { expectedIds, type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

const DAY = 86_400_000;
const PROVIDERS = [
  { provider: "gmail", email: PEOPLE.alex, key: "id" },
  { provider: "outlook", email: PEOPLE.jordan, key: "graphId" },
] as const;

/** DB rows == the emulator's mailbox (in scope), with no provider id twice. */
async function expectConverged(
  f: SyncFixture,
  accountId: string,
  provider: "gmail" | "outlook",
  email: string,
) {
  const expected = expectedIds(await f.mailbox(email), provider, 90);
  const rows = await f.rows(accountId);
  const ids = rows.map((r) => r.providerId);
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set(ids)).toEqual(expected);
}

describe.each(BACKENDS)("sync engine on %s", (kind) => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture(kind);
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  describe.each(PROVIDERS)("$provider", ({ provider, email, key }) => {
    let accountId = "";
    let userId = "";

    it("initial sync: first page visible quickly, backfill completes, inbox + 90 days, buckets", async () => {
      // 150 messages over 80 days, some archived (still in the 90-day window), plus old archived
      // mail outside the window, which the initial sync must leave alone.
      const enc = encodeURIComponent(email);
      await f.admin("POST", `mailboxes/${enc}/generate`, { count: 150, seed: 7, days: 80 });
      const now = Date.now();
      for (let i = 0; i < 4; i++) {
        await f.admin("POST", `mailboxes/${enc}/messages`, {
          from: { name: "Archive", address: `old${i}@example.org` },
          subject: `Old archived ${i}`,
          text: "old",
          labelIds: [],
          internalDate: now - (120 + i) * DAY,
        });
      }
      // Recent archived mail is in scope too (Gmail: `in:inbox OR after:X`; Graph: the date window).
      const archiveRecent = 5;
      for (const m of (await f.mailbox(email))
        .filter((m) => m.internalDate > now - 30 * DAY)
        .slice(0, archiveRecent)) {
        await f.admin("POST", `mailboxes/${enc}/messages/${m.id}/modify`, { removeLabelIds: ["INBOX"] });
      }
      const all = await f.mailbox(email);
      const old = all.filter((m) => m.internalDate < now - 100 * DAY);
      const recent = all.filter((m) => !m.labelIds.includes("INBOX") && m.internalDate > now - 30 * DAY);
      expect(old).toHaveLength(4);
      expect(recent).toHaveLength(archiveRecent);

      const started = Date.now();
      ({ accountId, userId } = await f.signIn(provider, email));
      await waitUntil(async () => (await f.rows(accountId)).length > 0, 10_000, "first page");
      const firstPageMs = Date.now() - started;
      // Progress comes from the provider's real counts (issue 19.3): the inbox's own total (plus
      // what the pass has counted beyond it), never a guess above what the pass will bring in.
      const inScope = expectedIds(all, provider, 90).size;
      const inboxTotal = all.filter((m) => m.labelIds.includes("INBOX")).length;
      const firstEstimate = (await f.state(accountId))?.totalEstimate ?? 0;
      expect(firstEstimate).toBeGreaterThanOrEqual(inboxTotal);
      expect(firstEstimate).toBeLessThanOrEqual(Math.max(inScope, inboxTotal));
      console.info(`[sync] ${kind} ${provider}: first page visible ${firstPageMs} ms after sign-in`);
      expect(firstPageMs).toBeLessThan(5_000);

      const state = await waitUntil(
        async () => {
          const s = await f.state(accountId);
          return s?.backfillDone ? s : undefined;
        },
        30_000,
        "backfill",
      );
      console.info(`[sync] ${kind} ${provider}: backfill done ${Date.now() - started} ms after sign-in`);
      await expectConverged(f, accountId, provider, email);
      const rows = await f.rows(accountId);
      const keys = new Set(rows.map((r) => r.providerId));
      for (const m of old) expect(keys.has(m[key])).toBe(false);
      for (const m of recent) expect(keys.has(m[key])).toBe(true);
      expect(rows.every((r) => r.bucket !== null && (BUCKETS as readonly string[]).includes(r.bucket))).toBe(
        true,
      );
      expect(new Set(rows.map((r) => r.bucket)).size).toBeGreaterThan(1);
      expect(state.syncedCount).toBeGreaterThanOrEqual(rows.length);
      // Once the pass is over the figure is what is stored, whatever the provider estimated.
      expect(state.totalEstimate).toBe(rows.length);
      expect(state.cursor).toBeTruthy();

      const status = await f.services.sync.service.syncStatus(userId);
      expect(status.map((s) => syncStatusSchema.parse(s))).toMatchObject([
        { accountId, status: "idle", syncedCount: state.syncedCount },
      ]);
    }, 60_000);

    it("registers a push watch after the initial sync", async () => {
      const state = await waitUntil(
        async () => {
          const s = await f.state(accountId);
          return s?.pushExpiresAt ? s : undefined;
        },
        10_000,
        "watch",
      );
      expect(state.pushClientStateHash).toMatch(/^[0-9a-f]{64}$/);
      if (provider === "outlook") expect(state.pushSubscriptionId).toBeTruthy();
    });

    it("incremental: add, modify, delete in the mailbox; a push makes new mail visible within seconds", async () => {
      const added = await f.admin("POST", `mailboxes/${encodeURIComponent(email)}/messages`, {
        from: { name: "Robin", address: "robin@example.org" },
        subject: "Dinner on Friday?",
        text: "How are you? Dinner on Friday?",
      });
      const addedAt = Date.now();
      const addedMsg = added.json as { id: string; graphId: string };
      const row = await waitUntil(
        async () => (await f.rows(accountId)).find((r) => r.providerId === addedMsg[key]),
        10_000,
        "pushed message",
      );
      const latency = Date.now() - addedAt;
      console.info(`[sync] ${kind} ${provider}: push-to-visible ${latency} ms`);
      // The 2 s target is measured by bench/sync/push-latency.ts; this bound catches a push that
      // waits for the 60 s poll without measuring a loaded 2-core CI machine.
      expect(latency).toBeLessThan(5_000);
      expect(row.subject).toBe("Dinner on Friday?");
      expect(row.bucket).toBe("personal");

      // Modify (read + star) one message, delete another, then sync.
      const box = await f.mailbox(email);
      const [toRead, toDelete] = box.filter(
        (m) => m.labelIds.includes("INBOX") && m.labelIds.includes("UNREAD"),
      );
      if (!toRead || !toDelete) throw new Error("mailbox has too few unread messages");
      await f.admin("POST", `mailboxes/${encodeURIComponent(email)}/messages/${toRead.id}/modify`, {
        addLabelIds: ["STARRED"],
        removeLabelIds: ["UNREAD"],
      });
      await f.admin("DELETE", `mailboxes/${encodeURIComponent(email)}/messages/${toDelete.id}`);
      await f.services.sync.service.requestSync(accountId, "manual");
      await waitUntil(
        async () => {
          const rows = await f.rows(accountId);
          const read = rows.find((r) => r.providerId === toRead[key]);
          return (
            read?.isRead &&
            read.isStarred === (provider === "gmail" || read.isStarred) &&
            !rows.some((r) => r.providerId === toDelete[key])
          );
        },
        10_000,
        "modify + delete",
      );
      const read = (await f.rows(accountId)).find((r) => r.providerId === toRead[key]);
      expect(read?.isRead).toBe(true);
      expect(read?.readAt).toBeInstanceOf(Date);
      await expectConverged(f, accountId, provider, email);
    }, 30_000);

    it("cursor expiry: a full resync converges (rows deleted meanwhile go)", async () => {
      const box = await f.mailbox(email);
      const victims = box.filter((m) => m.labelIds.includes("INBOX")).slice(3, 6);
      // Stop the push channel from telling us first: expire history, then change the mailbox.
      await f.admin("PUT", "mail/push", { gmailPushUrl: null });
      for (const m of victims)
        await f.admin("DELETE", `mailboxes/${encodeURIComponent(email)}/messages/${m.id}`);
      await f.admin("POST", `mailboxes/${encodeURIComponent(email)}/expire-sync`);
      const before = (await f.state(accountId))?.generation ?? 0;
      await f.services.sync.service.requestSync(accountId, "manual");
      await waitUntil(
        async () => {
          const s = await f.state(accountId);
          return s && s.generation > before && s.backfillDone;
        },
        30_000,
        "resync",
      );
      await expectConverged(f, accountId, provider, email);
      await f.admin("PUT", "mail/push", {
        gmailPushUrl: `${f.url}/api/webhooks/gmail?token=${f.env.PUSH_WEBHOOK_SECRET}`,
      });
    }, 40_000);

    if (provider === "outlook") {
      it("Graph move: archive then unarchive gives a new id; still one row, re-keyed", async () => {
        const box = await f.mailbox(email);
        const target = box.find(
          (m) => m.labelIds.includes("INBOX") && m.internalDate > Date.now() - 30 * DAY,
        );
        if (!target) throw new Error("no recent inbox message");
        const before = (await f.rows(accountId)).find((r) => r.providerId === target.graphId);
        expect(before).toBeDefined();
        const enc = encodeURIComponent(email);
        await f.admin("POST", `mailboxes/${enc}/messages/${target.id}/modify`, { removeLabelIds: ["INBOX"] });
        await f.admin("POST", `mailboxes/${enc}/messages/${target.id}/modify`, { addLabelIds: ["INBOX"] });
        const moved = (await f.mailbox(email)).find((m) => m.id === target.id);
        expect(moved?.graphId).not.toBe(target.graphId);
        await f.services.sync.service.requestSync(accountId, "manual");
        const after = await waitUntil(
          async () => (await f.rows(accountId)).find((r) => r.providerId === moved?.graphId),
          10_000,
          "re-keyed row",
        );
        const rows = await f.rows(accountId);
        expect(rows.filter((r) => r.internetMessageId === before?.internetMessageId)).toHaveLength(1);
        expect(after.id).toBe(before?.id);
        await expectConverged(f, accountId, provider, email);
      }, 30_000);
    }
  });
});
