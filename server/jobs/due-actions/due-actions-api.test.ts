import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dueActionAttentionListSchema } from "../../../contract/due-actions.ts";
import { sendEmailAnswerSchema } from "../../../contract/outbox.ts";
import { dueActions } from "../../db/schema.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import { callApi } from "../../test/slow-provider.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../../test/sync-fixture.ts";

/**
 * Failures of due actions, for every kind (issue 37, decision 0073): a revoked grant waits for the
 * reconnect and then runs; a run that keeps failing is listed for the person with its reason,
 * never dropped; Retry runs it again, Dismiss removes it. Real server (role all), real emulator.
 */
describe("due actions that need the person (pglite)", () => {
  let f: SyncFixture;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    f = await startSyncFixture("pglite");
    ({ token, userId } = await f.signIn("gmail", PEOPLE.alex));
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });
  afterEach(async () => {
    await f.admin("POST", "mail/faults/reset");
  });

  const api = (method: string, path: string, body?: unknown, as = token) =>
    callApi(f, method, path, as, body);

  async function attention() {
    const r = await api("GET", "/api/due-actions/failed");
    expect(r.status).toBe(200);
    return dueActionAttentionListSchema.parse(r.json).items;
  }

  async function arrived(subject: string): Promise<number> {
    const r = await f.admin(
      "GET",
      `mailboxes/${encodeURIComponent(PEOPLE.priya)}?limit=1000&provider=google`,
    );
    return (r.json as { messages: Array<{ subject: string }> }).messages.filter((m) => m.subject === subject)
      .length;
  }

  async function hold(subject: string): Promise<string> {
    const r = await api("POST", "/api/emails/send", { to: PEOPLE.priya, subject, body: subject });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return sendEmailAnswerSchema.parse(r.json).outboxId;
  }

  const settle = (ms = 2_500) => new Promise((resolve) => setTimeout(resolve, ms));

  it("a revoked token: the action waits and the person is asked to reconnect; once reconnected it runs, once", async () => {
    const subject = `Waits for reconnect ${Date.now()}`;
    const id = await hold(subject);
    expect((await f.admin("POST", "tokens/revoke", { email: PEOPLE.alex, provider: "google" })).status).toBe(
      200,
    );
    f.services.clock.advance(11);
    const waiting = await waitUntil(
      async () => (await attention()).find((a) => a.id === id && a.status === "waiting"),
      15_000,
      "the action to wait for a reconnect",
    );
    expect(waiting).toMatchObject({ kind: "send", label: `Send “${subject}” to ${PEOPLE.priya}` });
    expect(waiting.reason).toMatch(/reconnect|sign in/i);
    // Never given up, however long it waits; nothing goes out meanwhile.
    for (let i = 0; i < 3; i++) {
      f.services.clock.advance(3_600);
      await settle(1_500);
    }
    expect((await attention()).find((a) => a.id === id)?.status).toBe("waiting");
    expect(await arrived(subject)).toBe(0);
    // Reconnecting is signing in again with the account.
    await f.signIn("gmail", PEOPLE.alex);
    await waitUntil(async () => (await arrived(subject)) > 0, 15_000, "the delivery after the reconnect");
    await settle();
    expect(await arrived(subject)).toBe(1);
    expect((await attention()).find((a) => a.id === id)).toBeUndefined();
  }, 60_000);

  it("a run that keeps failing is given up by the retry policy, listed with its reason; Retry sends it once", async () => {
    const subject = `Keeps failing ${Date.now()}`;
    const id = await hold(subject);
    await f.admin("PUT", "mail/faults", { errorRate: 1, provider: "google" });
    // Each pass moves past the longest backoff (5 min) so every retry is due at once.
    const failed = await waitUntil(
      async () => {
        f.services.clock.advance(400);
        return (await attention()).find((a) => a.id === id && a.status === "failed");
      },
      45_000,
      "the action to be given up",
    );
    expect(failed.attempts).toBe(6);
    expect(failed.reason).toBeTruthy();
    expect(failed.label).toBe(`Send “${subject}” to ${PEOPLE.priya}`);
    // Kept: more time changes nothing, nothing was sent.
    f.services.clock.advance(3_600);
    await settle(1_500);
    expect((await attention()).find((a) => a.id === id)?.status).toBe("failed");
    expect(await arrived(subject)).toBe(0);

    await f.admin("POST", "mail/faults/reset");
    expect((await api("POST", `/api/due-actions/${id}/retry`)).status).toBe(200);
    await waitUntil(async () => (await arrived(subject)) > 0, 15_000, "the delivery after Retry");
    await settle();
    expect(await arrived(subject)).toBe(1);
    expect((await attention()).find((a) => a.id === id)).toBeUndefined();
    // Only a failed action can be retried.
    expect((await api("POST", `/api/due-actions/${id}/retry`)).status).toBe(404);
  }, 90_000);

  it("any kind: one with no handler is listed in words; Dismiss removes it; another person gets 404", async () => {
    const [row] = await f.database.database.db
      .insert(dueActions)
      .values({ userId, kind: "test.no-handler", runAt: f.services.clock.now(), payload: {} })
      .returning({ id: dueActions.id });
    if (!row) throw new Error("no row");
    const listed = await waitUntil(
      async () => (await attention()).find((a) => a.id === row.id && a.status === "failed"),
      10_000,
      "the unknown kind to fail",
    );
    expect(listed).toMatchObject({ kind: "test.no-handler", label: "A scheduled action" });
    expect(listed.reason).toBe("no handler for test.no-handler");

    const { token: other } = await f.signIn("outlook", PEOPLE.casey);
    expect(
      dueActionAttentionListSchema.parse((await api("GET", "/api/due-actions/failed", undefined, other)).json)
        .items,
    ).toEqual([]);
    expect((await api("DELETE", `/api/due-actions/${row.id}`, undefined, other)).status).toBe(404);
    expect((await api("POST", `/api/due-actions/${row.id}/retry`, undefined, other)).status).toBe(404);
    expect((await api("DELETE", "/api/due-actions/not-a-uuid")).status).toBe(404);

    expect((await api("DELETE", `/api/due-actions/${row.id}`)).status).toBe(200);
    expect((await attention()).find((a) => a.id === row.id)).toBeUndefined();
    const left = await f.database.database.db.select().from(dueActions).where(eq(dueActions.id, row.id));
    expect(left).toEqual([]);
    expect((await api("GET", "/api/due-actions/failed", undefined, "")).status).toBe(401);
  });
});
