import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEOPLE } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

const CASES = [
  { provider: "gmail", email: PEOPLE.alex, key: "id" },
  { provider: "outlook", email: PEOPLE.jordan, key: "graphId" },
] as const;
// One provider per backend: the start of push is the same engine code on both.
const RUNS = BACKENDS.map((kind, i) => ({ kind, cases: CASES.filter((_, c) => c === i % CASES.length) }));

/**
 * Mail that arrives after a new account's cursor was taken and before its push channel exists is
 * announced by nobody: the provider only notifies changes after the channel starts. The fixture
 * polls once an hour, so only the sync that follows a started channel can bring it in time.
 */
describe.each(RUNS)("mail arriving before the push channel starts, on $kind", ({ kind, cases }) => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture(kind);
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  it.each(cases)(
    "$provider: is synced within seconds, without a poll",
    async ({ provider, email, key }) => {
      let added: Record<string, string> | undefined;
      f.wrap.current = (client) => ({
        ...client,
        async watch(url, clientState, opts) {
          if (!added) {
            const answer = await f.admin("POST", `mailboxes/${encodeURIComponent(email)}/messages`, {
              from: { name: "Robin", address: "robin@example.org" },
              subject: "Sent while you were connecting",
              text: "Did this reach you?",
            });
            added = answer.json as Record<string, string>;
          }
          return client.watch(url, clientState, opts);
        },
      });
      try {
        const { accountId } = await f.signIn(provider, email);
        await waitUntil(async () => added, 30_000, "the push channel's start");
        const providerId = added?.[key];
        expect(providerId).toBeTruthy();
        await waitUntil(
          async () => (await f.rows(accountId)).some((r) => r.providerId === providerId) || undefined,
          15_000,
          "the message sent before the channel started",
        );
      } finally {
        f.wrap.current = undefined;
      }
    },
    90_000,
  );
});
