import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEOPLE } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

/**
 * Deleting a person while a push renewal is in flight: the provider has made a new channel that
 * our store does not know yet. Whichever of the two writes second must stop it, or Microsoft
 * keeps a subscription for a person who is gone.
 */
describe.each(BACKENDS)("deleting a person during a push renewal on %s", (kind) => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture(kind);
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  async function subscriptions(email: string): Promise<number> {
    const r = await f.admin("GET", `mailboxes/${encodeURIComponent(email)}`);
    return (r.json as { subscriptions: number }).subscriptions;
  }

  it("stops the Graph subscription the renewal made after the deletion closed the account's push", async () => {
    const { accountId, userId } = await f.signIn("outlook", PEOPLE.casey);
    await waitUntil(async () => (await f.state(accountId))?.pushSubscriptionId, 30_000, "the subscription");

    // The renewal makes a new subscription at Microsoft, then waits before its answer is stored.
    let made!: () => void;
    const provided = new Promise<void>((resolve) => {
      made = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    f.wrap.current = (client) => ({
      ...client,
      async watch(url, clientState, opts) {
        if (held) return client.watch(url, clientState, opts);
        held = true;
        // A new subscription, as when none was stored yet.
        const result = await client.watch(url, clientState);
        made();
        await gate;
        return result;
      },
    });
    const renewal = f.services.sync.syncer.renewWatch(accountId, { force: true });
    await provided;
    expect(await subscriptions(PEOPLE.casey)).toBeGreaterThan(0);

    await f.services.privacy.deleteNow(userId);
    release();
    await renewal;
    f.wrap.current = undefined;

    await waitUntil(
      async () => (await subscriptions(PEOPLE.casey)) === 0 || undefined,
      10_000,
      "no subscription",
    );
  }, 90_000);
});
