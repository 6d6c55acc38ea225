import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsResponseSchema } from "../../contract/auth.ts";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { waitUntil } from "../test/sync-fixture.ts";

/**
 * Disconnecting a mailbox stops its push channel at the provider: the mailbox no longer tells us
 * about its changes. A refused disconnect (the last account) leaves push running.
 */
describe.each(BACKENDS)("disconnect and push on %s", (kind) => {
  let f: AuthFixture;
  beforeAll(async () => {
    f = await startAuthFixture(kind, {}, { seedCorpus: false }, { role: "all" });
  });
  afterAll(async () => {
    await f?.close();
  });

  async function subscriptions(email: string): Promise<number> {
    const r = await fetch(`${f.emulator.url}/_admin/mailboxes/${encodeURIComponent(email)}`);
    return ((await r.json()) as { subscriptions: number }).subscriptions;
  }

  it("the Graph subscription of a disconnected Outlook account is deleted at Microsoft", async () => {
    const token = await f.signIn("outlook", PEOPLE.casey);
    await waitUntil(
      async () => (await subscriptions(PEOPLE.casey)) > 0 || undefined,
      20_000,
      "the subscription",
    );
    const listed = async (t: string) =>
      accountsResponseSchema.parse((await f.api("GET", "/api/accounts", { token: t })).json).accounts;
    const [outlook] = await listed(token);

    // The only account: refused, and its push keeps running.
    expect((await f.api("DELETE", `/api/accounts/${outlook?.id}`, { token })).status).toBe(409);
    expect(await subscriptions(PEOPLE.casey)).toBe(1);

    const linked = await f.signIn("gmail", PEOPLE.sam, { token });
    const deleted = await f.api("DELETE", `/api/accounts/${outlook?.id}`, { token: linked });
    expect(deleted.status).toBe(200);
    // At once, or just after when a renewal was in flight (it stops what it made, push-stop.ts).
    await waitUntil(
      async () => (await subscriptions(PEOPLE.casey)) === 0 || undefined,
      5_000,
      "no subscription",
    );
    expect((await listed(linked)).map((a) => a.email)).toEqual([PEOPLE.sam]);
  }, 60_000);
});
