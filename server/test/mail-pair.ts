import { PEOPLE } from "./auth-fixture.ts";
import { callApi, emulatorProvider, type Provider } from "./slow-provider.ts";
import type { SyncFixture } from "./sync-fixture.ts";

/** Who sends and who receives, per provider, in tests of mail that leaves (outbox, send later). */
export const SENDERS: Record<Provider, string> = { gmail: PEOPLE.alex, outlook: PEOPLE.jordan };
export const RECIPIENTS: Record<Provider, string> = { gmail: PEOPLE.priya, outlook: PEOPLE.casey };

/**
 * The sending side of a suite: API calls, each sender signed in once, and what reached the
 * recipient's emulator mailbox. `fixture` is read at each call, as suites start it in beforeAll.
 */
export function mailPair(fixture: () => SyncFixture) {
  const tokens: Partial<Record<Provider, string>> = {};
  /** Signs the sender in anew (a reconnect) and keeps that session for tokenOf. */
  async function signIn(provider: Provider): Promise<string> {
    const { token } = await fixture().signIn(provider, SENDERS[provider]);
    tokens[provider] = token;
    return token;
  }
  return {
    api: (method: string, path: string, token: string, body?: unknown) =>
      callApi(fixture(), method, path, token, body),

    signIn,

    /** The sender's session, signed in on first use. */
    async tokenOf(provider: Provider): Promise<string> {
      return tokens[provider] ?? signIn(provider);
    },

    /** Messages with `subject` in the recipient's emulator mailbox (its received copies). */
    async arrived(provider: Provider, subject: string): Promise<number> {
      const r = await fixture().admin(
        "GET",
        `mailboxes/${encodeURIComponent(RECIPIENTS[provider])}?limit=1000&provider=${emulatorProvider(provider)}`,
      );
      const list = (r.json as { messages: Array<{ subject: string }> }).messages;
      return list.filter((m) => m.subject === subject).length;
    },
  };
}
