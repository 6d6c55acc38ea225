import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, openDatabase } from "../db/client.ts";
import { DomainError } from "../http/errors.ts";
import { createClock } from "../lib/clock.ts";
import { storedAccount } from "../test/auth-db.ts";
import { type AuthFixture, startAuthFixture } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import type { TokenRefreshLock } from "./account-tokens.ts";
import { createAuthServices } from "./services.ts";

/**
 * Microsoft rotates refresh tokens, so two refreshes of one account must never overlap: the
 * second would present the token the first just retired and get invalid_grant. These tests run
 * two independent token services (on PostgreSQL each with its own pool, like two processes)
 * against the emulator, which rejects a rotated refresh token.
 */

/** How long each refresh grant is held before it reaches the emulator, so refreshes would overlap. */
const GRANT_DELAY_MS = 150;

/** Counts refresh grants sent to the Microsoft token endpoint, holding each back a little. */
function watchRefreshGrants(): { readonly count: number } {
  const realFetch = globalThis.fetch;
  let count = 0;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (
      url.includes("/login.microsoftonline.com/") &&
      String(init?.body).includes("grant_type=refresh_token")
    ) {
      count += 1;
      await new Promise((resolve) => setTimeout(resolve, GRANT_DELAY_MS));
    }
    return realFetch(input, init);
  });
  return {
    get count() {
      return count;
    },
  };
}

describe.each(BACKENDS)("Microsoft token refresh across processes on %s", (kind) => {
  let f: AuthFixture;
  const opened: Database[] = [];
  let seq = 0;

  beforeAll(async () => {
    f = await startAuthFixture(kind);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    for (const database of opened) await database.close().catch(() => undefined);
    await f?.close();
  });

  /** A signed-in Outlook account of its own, so tests do not share refresh tokens. */
  async function connectOutlook() {
    seq += 1;
    const email = `rotation.${seq}@outlook.com`;
    const added = await f.emulatorAdmin("identities", {
      provider: "microsoft",
      email,
      name: `Rotation ${seq}`,
    });
    expect(added.status).toBe(201);
    await f.signIn("outlook", email);
    return { email, account: await storedAccount(f.database.database, email) };
  }

  /**
   * Token services as two processes would build them. On PostgreSQL each gets its own pool; the
   * embedded database can be opened by one process only, so there both share the app's database.
   */
  async function twoProcesses(lock: TokenRefreshLock) {
    const clock = createClock();
    const services = [];
    for (let i = 0; i < 2; i++) {
      let db = f.database.database.db;
      if (kind === "postgres") {
        const own = await openDatabase({ database: f.database.config });
        opened.push(own);
        db = own.db;
      }
      services.push(
        (await createAuthServices({ config: f.server.config, db, clock, tokenRefreshLock: lock }))
          .accountTokens,
      );
    }
    const [a, b] = services;
    if (!a || !b) throw new Error("two services expected");
    return { clock, a, b };
  }

  async function graphAccepts(accessToken: string): Promise<boolean> {
    const r = await fetch(`${f.emulator.url}/graph.microsoft.com/v1.0/me`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    await r.body?.cancel();
    return r.status === 200;
  }

  const refreshTokensIssued = () => f.emulator.control.state().refreshTokens.total;

  it("two processes refreshing the same account at once: one grant, both get a working token", async () => {
    const { email, account } = await connectOutlook();
    const { clock, a, b } = await twoProcesses("database");
    await f.emulatorAdmin("tokens/expire", { email });
    expect(await graphAccepts(account.accessToken)).toBe(false);
    clock.advance(3600);

    const issuedBefore = refreshTokensIssued();
    const grants = watchRefreshGrants();
    const [x, y] = await Promise.all([
      a.getAccessToken(account.userId, account.id),
      b.getAccessToken(account.userId, account.id),
    ]);
    vi.restoreAllMocks();

    expect(grants.count).toBe(1);
    expect(refreshTokensIssued()).toBe(issuedBefore + 1);
    expect(x).toBe(y);
    expect(await graphAccepts(x)).toBe(true);
    const after = await storedAccount(f.database.database, email);
    expect(after.status).toBe("active");
    expect(after.accessToken).toBe(x);
    expect(after.refreshToken).not.toBe(account.refreshToken);

    // The stored refresh token is the newest one: the next round works from either process.
    clock.advance(3600);
    const next = await b.getAccessToken(account.userId, account.id);
    expect(next).not.toBe(x);
    expect(await graphAccepts(next)).toBe(true);
  });

  it("two processes forced to refresh after the same 401: the second uses the first one's token", async () => {
    const { email, account } = await connectOutlook();
    const { a, b } = await twoProcesses("database");
    await f.emulatorAdmin("tokens/expire", { email });

    const grants = watchRefreshGrants();
    const [x, y] = await Promise.all([
      a.getAccessToken(account.userId, account.id, { forceRefresh: true }),
      b.getAccessToken(account.userId, account.id, { forceRefresh: true }),
    ]);
    vi.restoreAllMocks();

    expect(grants.count).toBe(1);
    expect(x).toBe(y);
    expect(await graphAccepts(x)).toBe(true);
    expect((await storedAccount(f.database.database, email)).status).toBe("active");
  });

  it.runIf(kind === "postgres")(
    "without the database lock the same race loses the account (why the lock exists)",
    async () => {
      const { email, account } = await connectOutlook();
      const { clock, a, b } = await twoProcesses("process");
      clock.advance(3600);

      const grants = watchRefreshGrants();
      const results = await Promise.allSettled([
        a.getAccessToken(account.userId, account.id),
        b.getAccessToken(account.userId, account.id),
      ]);
      vi.restoreAllMocks();

      expect(grants.count).toBe(2);
      const rejected = results.filter((r) => r.status === "rejected");
      expect(rejected).toHaveLength(1);
      expect((rejected[0] as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
      expect(((rejected[0] as PromiseRejectedResult).reason as DomainError).code).toBe(
        "provider_reauth_required",
      );
      expect((await storedAccount(f.database.database, email)).status).toBe("reauth_required");
    },
  );

  it("a revoked grant still marks the account reauth_required under the lock", async () => {
    const { email, account } = await connectOutlook();
    const { clock, a, b } = await twoProcesses("database");
    expect((await f.emulatorAdmin("tokens/revoke", { email, provider: "microsoft" })).status).toBe(200);
    clock.advance(3600);

    const grants = watchRefreshGrants();
    const results = await Promise.allSettled([
      a.getAccessToken(account.userId, account.id),
      b.getAccessToken(account.userId, account.id),
    ]);
    vi.restoreAllMocks();

    // The second process finds the mark after the lock and does not ask the provider again.
    expect(grants.count).toBe(1);
    for (const result of results) {
      expect(result.status).toBe("rejected");
      expect(((result as PromiseRejectedResult).reason as DomainError).code).toBe("provider_reauth_required");
    }
    expect((await storedAccount(f.database.database, email)).status).toBe("reauth_required");
  });
});
