import { describe, expect, it } from "vitest";
import { DomainError } from "../http/errors.ts";
import type { AccountService } from "./accounts.ts";
import { createDisconnectService, type PushStopper } from "./disconnect.ts";
import type { OAuthProviders } from "./oauth-clients.ts";
import type { TokenVault } from "./token-vault.ts";

/** The order of a disconnect's steps around push, without a database or a provider. */
describe("disconnect and the account's push", () => {
  function service(owned: string[], remove: () => Promise<never>) {
    const calls: string[] = [];
    const accounts = {
      list: async () => owned.map((id) => ({ id })),
      remove,
    } as unknown as AccountService;
    const push: PushStopper = {
      async stop(_userId, accountId) {
        calls.push(`stop ${accountId}`);
        return {
          reopen: async () => {
            calls.push(`reopen ${accountId}`);
          },
        };
      },
    };
    const disconnect = createDisconnectService(
      accounts,
      {} as TokenVault,
      {} as OAuthProviders,
      () => undefined,
      push,
    );
    return { disconnect, calls };
  }
  const refused = async (): Promise<never> => {
    throw new DomainError("conflict", "refused");
  };

  it("gives push back when the removal is refused after push was stopped (a racing disconnect)", async () => {
    const { disconnect, calls } = service(["a", "b"], refused);
    await expect(disconnect.disconnect("u", "a")).rejects.toMatchObject({ code: "conflict" });
    expect(calls).toEqual(["stop a", "reopen a"]);
  });

  it("leaves push alone for a disconnect that will be refused: the only account, or not the person's", async () => {
    const only = service(["a"], refused);
    await expect(only.disconnect.disconnect("u", "a")).rejects.toMatchObject({ code: "conflict" });
    const other = service(["a", "b"], refused);
    await expect(other.disconnect.disconnect("u", "c")).rejects.toMatchObject({ code: "conflict" });
    expect([...only.calls, ...other.calls]).toEqual([]);
  });
});
