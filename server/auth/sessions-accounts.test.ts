import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsResponseSchema, SESSION_MESSAGES } from "../../contract/auth.ts";
import { mailAccounts } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import { createClock } from "../lib/clock.ts";
import { storedAccount, testVault } from "../test/auth-db.ts";
import { type AuthFixture, PEOPLE, startAuthFixture, TEST_OAUTH_CLIENTS } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { createAuthServices } from "./services.ts";
import { LINK_GRACE_MS } from "./sign-in.ts";

describe.each(BACKENDS)("sessions and accounts on %s", (kind) => {
  let f: AuthFixture;
  beforeAll(async () => {
    f = await startAuthFixture(kind);
  });
  afterAll(async () => {
    await f?.close();
  });

  /** A second copy of the services on the same database, with a clock the test moves. */
  async function servicesWithOwnClock() {
    const clock = createClock();
    const services = await createAuthServices({ config: f.server.config, db: f.database.database.db, clock });
    return { clock, services };
  }

  async function providerTokenIsAlive(provider: "gmail" | "outlook", accessToken: string): Promise<boolean> {
    const url =
      provider === "gmail"
        ? `${f.emulator.url}/openidconnect.googleapis.com/v1/userinfo`
        : `${f.emulator.url}/graph.microsoft.com/v1.0/me`;
    const r = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
    await r.body?.cancel();
    return r.status === 200;
  }

  describe("the session guard's 401s, in the contract's words", () => {
    it("no token, garbage, an unknown token, another scheme", async () => {
      const cases: Array<[Record<string, string>, string, string]> = [
        [{}, "unauthorized", SESSION_MESSAGES.missing],
        [{ authorization: "Basic dXNlcjpwYXNz" }, "unauthorized", SESSION_MESSAGES.missing],
        [{ authorization: "Bearer " }, "unauthorized", SESSION_MESSAGES.missing],
        [{ authorization: "Bearer garbage" }, "unauthorized", SESSION_MESSAGES.invalid],
        [{ authorization: `Bearer ${"A".repeat(43)}` }, "unauthorized", SESSION_MESSAGES.invalid],
      ];
      for (const [headers, code, message] of cases) {
        for (const [method, path] of [
          ["GET", "/api/auth/session"],
          ["POST", "/api/auth/logout"],
          ["GET", "/api/accounts"],
        ] as const) {
          const r = await f.api(method, path, { headers });
          expect(r.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
          expect(r.json).toEqual({ error: { code, message } });
        }
      }
    });

    it("logout ends the session: 'Session invalidated' afterwards", async () => {
      const token = await f.signIn("gmail", PEOPLE.alex);
      const other = await f.signIn("gmail", PEOPLE.alex);
      expect((await f.api("POST", "/api/auth/logout", { token })).json).toEqual({ success: true });
      const after = await f.api("GET", "/api/auth/session", { token });
      expect(after.status).toBe(401);
      expect(after.json).toEqual({
        error: { code: "session_expired", message: SESSION_MESSAGES.invalidated },
      });
      // Only that browser was signed out.
      expect((await f.api("GET", "/api/auth/session", { token: other })).status).toBe(200);
    });

    it("a stale token cannot start a linking flow", async () => {
      const r = await f.api("GET", "/api/auth/outlook", { headers: { authorization: "Bearer garbage" } });
      expect(r.status).toBe(401);
    });
  });

  describe("several accounts per user", () => {
    it("links a second and a third account; any of them signs in to the same user", async () => {
      const token = await f.signIn("outlook", PEOPLE.casey);
      const owner = await f.sessionUser(token);

      const afterSecond = await f.signIn("gmail", PEOPLE.sam, { token });
      expect((await f.sessionUser(afterSecond)).id).toBe(owner.id);
      const afterThird = await f.signIn("gmail", PEOPLE.priya, { token: afterSecond });

      const accounts = await f.api("GET", "/api/accounts", { token: afterThird });
      expect(accounts.status).toBe(200);
      const listed = accountsResponseSchema.parse(accounts.json).accounts;
      expect(listed.map((a) => a.email)).toEqual([PEOPLE.casey, PEOPLE.sam, PEOPLE.priya]);

      const viaSecond = await f.signIn("gmail", PEOPLE.sam);
      const user = await f.sessionUser(viaSecond);
      expect(user.id).toBe(owner.id);
      expect(user.email).toBe(PEOPLE.casey);
      expect(user.accounts).toHaveLength(3);
    });

    it("linking ends the session that started it, after a grace for calls already sent, and answers a new one", async () => {
      const before = await f.signIn("outlook", PEOPLE.casey);
      const bystander = await f.signIn("outlook", PEOPLE.casey);
      const owner = await f.sessionUser(before);
      const after = await f.signIn("gmail", PEOPLE.sam, { token: before });
      expect(after).not.toBe(before);

      // The page still holds the old token until the sign-in window hands it the new one.
      expect((await f.api("GET", "/api/accounts", { token: before })).status).toBe(200);
      await f.moveClock(LINK_GRACE_MS / 1000 + 1);
      const old = await f.api("GET", "/api/auth/session", { token: before });
      expect(old.status).toBe(401);
      expect(old.json).toEqual({
        error: { code: "session_expired", message: SESSION_MESSAGES.invalidated },
      });
      expect((await f.api("GET", "/api/accounts", { token: before })).status).toBe(401);
      const user = await f.sessionUser(after);
      expect(user.id).toBe(owner.id);
      expect(user.accounts.map((a) => a.email)).toEqual(expect.arrayContaining([PEOPLE.casey, PEOPLE.sam]));
      // Only the linking browser's session was replaced; the user's other sessions live on.
      expect((await f.sessionUser(bystander)).id).toBe(owner.id);
    });

    it("a link the provider refuses leaves the starting session alone", async () => {
      const mine = await f.signIn("outlook", PEOPLE.jordan);
      await f.signIn("gmail", PEOPLE.alex);
      const flow = await f.start("gmail", { token: mine });
      const back = await f.consent(flow, PEOPLE.alex, "cancel");
      expect((await f.callback("gmail", back.searchParams, { cookie: flow.cookie })).status).toBe(400);
      expect((await f.api("GET", "/api/auth/session", { token: mine })).status).toBe(200);
    });

    it("refuses to link an account that belongs to another user (409)", async () => {
      const mine = await f.signIn("outlook", PEOPLE.jordan);
      const theirs = await f.signIn("gmail", PEOPLE.alex);
      const flow = await f.start("gmail", { token: mine });
      const back = await f.consent(flow, PEOPLE.alex);
      const r = await f.callback("gmail", back.searchParams, { cookie: flow.cookie });
      expect(r.status).toBe(409);
      expect(r.json).toEqual({
        error: { code: "conflict", message: expect.stringContaining("already connected to another") },
      });
      expect((await f.sessionUser(theirs)).accounts.map((a) => a.email)).toEqual([PEOPLE.alex]);
      expect((await f.sessionUser(mine)).accounts.map((a) => a.email)).toEqual([PEOPLE.jordan]);
    });
  });

  describe("disconnecting", () => {
    it("another user's account is not found, neither listed nor deletable", async () => {
      const a = await f.signIn("outlook", PEOPLE.jordan);
      const b = await f.signIn("gmail", PEOPLE.alex);
      const bAccount = (await f.sessionUser(b)).accounts[0];
      if (!bAccount) throw new Error("B has no account");
      const listA = await f.api("GET", "/api/accounts", { token: a });
      expect(JSON.stringify(listA.json)).not.toContain(bAccount.id);
      const del = await f.api("DELETE", `/api/accounts/${bAccount.id}`, { token: a });
      expect(del.status).toBe(404);
      expect(del.json).toMatchObject({ error: { code: "not_found" } });
      expect((await f.api("DELETE", "/api/accounts/not-a-uuid", { token: a })).status).toBe(404);
      expect((await f.sessionUser(b)).accounts).toHaveLength(1);
    });

    it("refuses the last account (409), then removes a linked one and revokes its Google grant", async () => {
      const token = await f.signIn("outlook", PEOPLE.jordan);
      const [only] = (await f.sessionUser(token)).accounts;
      const last = await f.api("DELETE", `/api/accounts/${only?.id}`, { token });
      expect(last.status).toBe(409);
      expect(last.json).toMatchObject({
        error: { code: "conflict", message: expect.stringMatching(/only/) },
      });

      // Alex belongs to another user by now; a fresh identity keeps this test independent.
      const added = await f.emulatorAdmin("identities", {
        provider: "google",
        email: "robin.disconnect@gmail.com",
        name: "Robin Disconnect",
      });
      expect(added.status).toBe(201);
      const linked = await f.signIn("gmail", "robin.disconnect@gmail.com", { token });
      const gmail = await storedAccount(f.database.database, "robin.disconnect@gmail.com");
      expect(await providerTokenIsAlive("gmail", gmail.accessToken)).toBe(true);

      const del = await f.api("DELETE", `/api/accounts/${gmail.id}`, { token: linked });
      expect(del.status).toBe(200);
      expect((await f.sessionUser(linked)).accounts.map((a) => a.email)).toEqual([PEOPLE.jordan]);
      const rows = await f.database.database.executeSql("select id from mail_accounts where id = $1", [
        gmail.id,
      ]);
      expect(rows.rows).toHaveLength(0);
      // Revoked at Google: neither the access token nor the refresh token works any more.
      expect(await providerTokenIsAlive("gmail", gmail.accessToken)).toBe(false);
      const refresh = await fetch(`${f.emulator.url}/oauth2.googleapis.com/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: gmail.refreshToken ?? "",
          client_id: TEST_OAUTH_CLIENTS.gmail.clientId,
          client_secret: TEST_OAUTH_CLIENTS.gmail.clientSecret,
        }).toString(),
      });
      expect(refresh.status).toBe(400);
      expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
    });
  });

  describe("getAccessToken", () => {
    it("Google: refreshes near expiry and keeps the same refresh token", async () => {
      const token = await f.signIn("gmail", PEOPLE.priya);
      const { userId } = await storedAccount(f.database.database, PEOPLE.priya);
      const before = await storedAccount(f.database.database, PEOPLE.priya);
      const { clock, services } = await servicesWithOwnClock();

      // Fresh token: handed out as is.
      expect(await services.accountTokens.getAccessToken(userId, before.id)).toBe(before.accessToken);

      expect((await f.emulatorAdmin("tokens/expire", { email: PEOPLE.priya })).status).toBe(200);
      expect(await providerTokenIsAlive("gmail", before.accessToken)).toBe(false);
      clock.advance(3600 - 60);
      const fresh = await services.accountTokens.getAccessToken(userId, before.id);
      expect(fresh).not.toBe(before.accessToken);
      expect(await providerTokenIsAlive("gmail", fresh)).toBe(true);

      const after = await storedAccount(f.database.database, PEOPLE.priya);
      expect(after.accessToken).toBe(fresh);
      expect(after.refreshToken).toBe(before.refreshToken);
      expect(after.refreshTokenCiphertext).toBe(before.refreshTokenCiphertext);
      expect((await f.sessionUser(token)).accounts[0]?.status).toBe("active");
    });

    it("reuses a fresh token from memory for up to a minute; a forced refresh skips the memory", async () => {
      await f.signIn("gmail", PEOPLE.alex);
      const account = await storedAccount(f.database.database, PEOPLE.alex);
      const { clock, services } = await servicesWithOwnClock();
      const get = (forceRefresh = false) =>
        services.accountTokens.getAccessToken(account.userId, account.id, { forceRefresh });
      const first = await get();
      expect(first).toBe(account.accessToken);

      // Another process stores a new token: ours stays valid and is handed out without a read.
      await f.database.database.db
        .update(mailAccounts)
        .set({ accessTokenCiphertext: testVault().encrypt("from-another-process", "provider-access-token") })
        .where(eq(mailAccounts.id, account.id));
      expect(await get()).toBe(first);
      clock.advance(61);
      expect(await get()).toBe("from-another-process");

      // After a provider 401 the caller forces a refresh: the memory is not asked.
      const forced = await get(true);
      expect(forced).not.toBe("from-another-process");
      expect(await providerTokenIsAlive("gmail", forced)).toBe(true);
      expect(await get()).toBe(forced);
    });

    it("Microsoft: refreshes and stores the rotated refresh token", async () => {
      await f.signIn("outlook", PEOPLE.casey);
      const before = await storedAccount(f.database.database, PEOPLE.casey);
      const { clock, services } = await servicesWithOwnClock();
      await f.emulatorAdmin("tokens/expire", { email: PEOPLE.casey });
      clock.advance(3600);
      const fresh = await services.accountTokens.getAccessToken(before.userId, before.id);
      expect(fresh).not.toBe(before.accessToken);
      expect(await providerTokenIsAlive("outlook", fresh)).toBe(true);
      const after = await storedAccount(f.database.database, PEOPLE.casey);
      expect(after.refreshToken).toBeDefined();
      expect(after.refreshToken).not.toBe(before.refreshToken);

      // Parallel callers share one refresh, so a rotation is never raced.
      clock.advance(3600);
      const [x, y] = await Promise.all([
        services.accountTokens.getAccessToken(before.userId, before.id),
        services.accountTokens.getAccessToken(before.userId, before.id),
      ]);
      expect(x).toBe(y);
      expect(await providerTokenIsAlive("outlook", x)).toBe(true);
    });

    it("a revoked grant marks the account reauth_required; signing in again repairs it", async () => {
      const token = await f.signIn("gmail", PEOPLE.sam);
      const account = await storedAccount(f.database.database, PEOPLE.sam);
      const { clock, services } = await servicesWithOwnClock();
      const revoked = await f.emulatorAdmin("tokens/revoke", { email: PEOPLE.sam, provider: "google" });
      expect(revoked.status).toBe(200);
      clock.advance(3600);

      const failure = await services.accountTokens.getAccessToken(account.userId, account.id).catch((e) => e);
      expect(failure).toBeInstanceOf(DomainError);
      expect((failure as DomainError).code).toBe("provider_reauth_required");
      expect((await storedAccount(f.database.database, PEOPLE.sam)).status).toBe("reauth_required");
      const listed = await f.api("GET", "/api/accounts", { token });
      expect(listed.json?.accounts).toEqual(
        expect.arrayContaining([expect.objectContaining({ email: PEOPLE.sam, status: "reauth_required" })]),
      );
      // No provider call while the account waits for the user.
      const again = await services.accountTokens.getAccessToken(account.userId, account.id).catch((e) => e);
      expect((again as DomainError).code).toBe("provider_reauth_required");

      await f.signIn("gmail", PEOPLE.sam);
      expect((await storedAccount(f.database.database, PEOPLE.sam)).status).toBe("active");
    });

    it("is scoped to the owner: another user's account id is not found", async () => {
      const mine = await storedAccount(f.database.database, PEOPLE.jordan);
      const theirs = await storedAccount(f.database.database, PEOPLE.alex);
      expect(mine.userId).not.toBe(theirs.userId);
      const { services } = await servicesWithOwnClock();
      const err = await services.accountTokens.getAccessToken(mine.userId, theirs.id).catch((e) => e);
      expect((err as DomainError).code).toBe("not_found");
    });
  });

  it("no provider token, ciphertext or hash appears in any answer", async () => {
    // Exercise every read endpoint once more so the transcript covers them.
    const token = await f.signIn("gmail", PEOPLE.priya);
    await f.api("GET", "/api/auth/session", { token });
    await f.api("GET", "/api/accounts", { token });
    const { rows } = await f.database.database.executeSql(
      "select email from mail_accounts union all select 'x' where false",
    );
    const secrets: string[] = [];
    for (const { email } of rows as Array<{ email: string }>) {
      const a = await storedAccount(f.database.database, email);
      secrets.push(a.accessToken, a.accessTokenCiphertext);
      if (a.refreshToken) secrets.push(a.refreshToken);
      if (a.refreshTokenCiphertext) secrets.push(a.refreshTokenCiphertext);
    }
    const hashes = await f.database.database.executeSql(
      "select token_hash as h from sessions union all select state_hash from oauth_states union all select flow_hash from oauth_states union all select code_verifier_ciphertext from oauth_states",
    );
    secrets.push(...(hashes.rows as Array<{ h: string }>).map((r) => r.h));
    expect(secrets.length).toBeGreaterThan(20);
    const everything = f.transcript.join("\n");
    expect(everything.length).toBeGreaterThan(10_000);
    for (const secret of secrets) expect(everything.includes(secret), "leaked a secret").toBe(false);
  });

  // Moves the server clock a month: keep these last, they age every session above.
  describe("sliding expiry on the server clock", () => {
    it("renews on use, and expires 30 days after the last use: 'Session expired'", async () => {
      const token = await f.signIn("outlook", PEOPLE.jordan);
      await f.moveClock(20 * 86_400);
      expect((await f.api("GET", "/api/auth/session", { token })).status).toBe(200);
      await f.moveClock(20 * 86_400);
      // 40 days after sign-in but 20 after the last use: still signed in.
      expect((await f.api("GET", "/api/auth/session", { token })).status).toBe(200);
      await f.moveClock(31 * 86_400);
      const expired = await f.api("GET", "/api/auth/session", { token });
      expect(expired.status).toBe(401);
      expect(expired.json).toEqual({ error: { code: "session_expired", message: SESSION_MESSAGES.expired } });
    });
  });
});
