import { createHash } from "node:crypto";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testVault } from "../test/auth-db.ts";
import { type AuthFixture, PEOPLE, startAuthFixture, TEST_OAUTH_CLIENTS } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { startTestServer } from "../test/server.ts";
import { HANDOFF_TTL_SECONDS, LINK_GRACE_MS } from "./sign-in.ts";
import { STATE_MESSAGES } from "./state-store.ts";
import { TICKET_MESSAGES } from "./tickets.ts";

function sha256(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

describe.each(BACKENDS)("sign-in on %s", (kind) => {
  let f: AuthFixture;
  beforeAll(async () => {
    f = await startAuthFixture(kind);
  });
  afterAll(async () => {
    await f?.close();
  });

  it("Gmail: PKCE S256, offline access, state prefixed with the provider, flow cookie, then a session", async () => {
    const flow = await f.start("gmail");
    const url = new URL(flow.authUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${f.emulator.url}/accounts.google.com/o/oauth2/v2/auth`);
    const q = url.searchParams;
    expect(q.get("client_id")).toBe(TEST_OAUTH_CLIENTS.gmail.clientId);
    expect(q.get("redirect_uri")).toBe(`${f.server.url}/auth/callback`);
    expect(q.get("response_type")).toBe("code");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("access_type")).toBe("offline");
    expect(q.get("prompt")).toBe("consent");
    expect(q.get("scope")?.split(" ")).toEqual(
      expect.arrayContaining(["openid", "email", "https://www.googleapis.com/auth/gmail.modify"]),
    );
    // Incremental consent: calendar access is asked for only when a calendar is connected.
    expect(q.get("scope")).not.toContain("calendar");
    expect(flow.state).toMatch(/^gmail\.[A-Za-z0-9_-]{43}$/);

    const setCookie = (
      await fetch(`${f.server.url}/api/auth/gmail`).then((r) => r.headers.getSetCookie())
    ).join(";");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);

    // Only hashes of the state and flow id are stored.
    const stored = await f.database.database.executeSql(
      "select state_hash, flow_hash, code_verifier_ciphertext from oauth_states where state_hash = $1",
      [sha256(flow.state)],
    );
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows)).not.toContain(flow.state);

    const back = await f.consent(flow, PEOPLE.alex);
    expect(back.searchParams.get("state")).toBe(flow.state);
    const result = await f.callback("gmail", back.searchParams, { cookie: flow.cookie });
    expect(result.status).toBe(200);
    expect(result.headers.get("cache-control")).toBe("no-store");
    expect(result.json).toMatchObject({ success: true, message: expect.any(String) });
    const token = String(result.json?.sessionToken);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const session = await f.api("GET", "/api/auth/session", { token });
    expect(session.status).toBe(200);
    const user = session.json?.user as Record<string, unknown>;
    expect(user).toMatchObject({ email: PEOPLE.alex, displayName: "Alex Morgan", plan: "trial" });
    const created = Date.parse(String(user.createdAt));
    expect(Date.parse(String(user.trialEndsAt)) - created).toBe(14 * 86_400_000);
    expect(user.accounts).toEqual([
      expect.objectContaining({ provider: "gmail", email: PEOPLE.alex, status: "active" }),
    ]);
    // The session token itself is stored only as its hash.
    const sessions = await f.database.database.executeSql("select token_hash from sessions");
    expect(JSON.stringify(sessions.rows)).not.toContain(token);
    expect(JSON.stringify(sessions.rows)).toContain(sha256(token));
  });

  it("Outlook: Microsoft scopes, an 'outlook' state, identity from Graph /me", async () => {
    const flow = await f.start("outlook");
    const url = new URL(flow.authUrl);
    expect(url.pathname).toBe("/login.microsoftonline.com/common/oauth2/v2.0/authorize");
    expect(url.searchParams.get("scope")).toBe(
      "openid profile email offline_access User.Read Mail.ReadWrite Mail.Send",
    );
    expect(flow.state).toContain("outlook");
    const back = await f.consent(flow, PEOPLE.jordan);
    const result = await f.callback("outlook", back.searchParams, { cookie: flow.cookie });
    expect(result.status).toBe(200);
    const session = await f.api("GET", "/api/auth/session", { token: String(result.json?.sessionToken) });
    expect(session.json?.user).toMatchObject({
      email: PEOPLE.jordan,
      displayName: "Jordan Lee",
      accounts: [expect.objectContaining({ provider: "outlook", email: PEOPLE.jordan })],
    });
  });

  it("signing in again with the same account opens the same user", async () => {
    const first = await f.signIn("gmail", PEOPLE.sam);
    const again = await f.signIn("gmail", PEOPLE.sam);
    expect(again).not.toBe(first);
    const a = await f.sessionUser(first);
    const b = await f.sessionUser(again);
    expect(b.id).toBe(a.id);
    expect(b.accounts).toHaveLength(1);
  });

  describe("state", () => {
    it("rejects a callback without state, with garbage, and with an unknown state", async () => {
      const flow = await f.start("gmail");
      const back = await f.consent(flow, PEOPLE.alex);
      const code = back.searchParams.get("code") ?? "";
      for (const state of [
        undefined,
        "garbage",
        `gmail.${"A".repeat(43)}`,
        flow.state.replace("gmail.", "outlook."),
      ]) {
        const params = new URLSearchParams({ code });
        if (state) params.set("state", state);
        const result = await f.callback("gmail", params, { cookie: flow.cookie });
        expect(result.status, String(state)).toBe(400);
        expect(result.json).toEqual({ error: { code: "bad_request", message: STATE_MESSAGES.invalid } });
      }
      // The right state at the other provider's callback is unknown there too.
      const cross = await f.callback("outlook", back.searchParams, { cookie: flow.cookie });
      expect(cross.status).toBe(400);
      // None of that spent the real state.
      expect((await f.callback("gmail", back.searchParams, { cookie: flow.cookie })).status).toBe(200);
    });

    it("is single use: replaying a finished callback is refused", async () => {
      const flow = await f.start("gmail");
      const back = await f.consent(flow, PEOPLE.alex);
      expect((await f.callback("gmail", back.searchParams, { cookie: flow.cookie })).status).toBe(200);
      const replay = await f.callback("gmail", back.searchParams, { cookie: flow.cookie });
      expect(replay.status).toBe(400);
      expect(replay.json).toEqual({ error: { code: "bad_request", message: STATE_MESSAGES.reused } });
    });

    it("must come back to the browser that started the flow", async () => {
      const flow = await f.start("outlook");
      const back = await f.consent(flow, PEOPLE.jordan);
      const noCookie = await f.callback("outlook", back.searchParams);
      expect(noCookie.status).toBe(400);
      expect(noCookie.json).toEqual({ error: { code: "bad_request", message: STATE_MESSAGES.otherBrowser } });
      const otherBrowser = await f.start("outlook");
      const wrongCookie = await f.callback("outlook", back.searchParams, { cookie: otherBrowser.cookie });
      expect(wrongCookie.status).toBe(400);
      // A stranger's attempt does not burn the state for its owner.
      expect((await f.callback("outlook", back.searchParams, { cookie: flow.cookie })).status).toBe(200);
    });

    it("expires after ten minutes (server clock)", async () => {
      const flow = await f.start("gmail");
      const back = await f.consent(flow, PEOPLE.alex);
      const moved = await f.moveClock(601);
      expect(moved.status).toBe(200);
      const late = await f.callback("gmail", back.searchParams, { cookie: flow.cookie });
      expect(late.status).toBe(400);
      expect(late.json).toEqual({ error: { code: "bad_request", message: STATE_MESSAGES.expired } });
    });
  });

  describe("provider refusals surface as 400", () => {
    it("a tampered PKCE verifier is rejected by the provider and the code is not retried", async () => {
      const flow = await f.start("gmail");
      const back = await f.consent(flow, PEOPLE.alex);
      const forged = testVault().encrypt("x".repeat(64), "pkce-verifier");
      await f.database.database.executeSql(
        "update oauth_states set code_verifier_ciphertext = $1 where state_hash = $2",
        [forged, sha256(flow.state)],
      );
      const result = await f.callback("gmail", back.searchParams, { cookie: flow.cookie });
      expect(result.status).toBe(400);
      expect(result.json).toEqual({ error: { code: "bad_request", message: "Authentication failed" } });
    });

    it("a redirect_uri that differs from the authorization request is rejected", async () => {
      const flow = await f.start("outlook", { flow: "redirect" });
      expect(new URL(flow.authUrl).searchParams.get("redirect_uri")).toBe(
        `${f.server.url}/api/auth/outlook/callback`,
      );
      const back = await f.consent(flow, PEOPLE.jordan);
      await f.database.database.executeSql(
        "update oauth_states set redirect_uri = $1 where state_hash = $2",
        [`${f.server.url}/auth/callback`, sha256(flow.state)],
      );
      const result = await f.callback("outlook", back.searchParams, { cookie: flow.cookie });
      expect(result.status).toBe(400);
      expect(result.json).toEqual({ error: { code: "bad_request", message: "Authentication failed" } });
    });

    it("the user pressing Cancel at the provider", async () => {
      const flow = await f.start("gmail");
      const back = await f.consent(flow, PEOPLE.alex, "cancel");
      expect(back.searchParams.get("error")).toBe("access_denied");
      const result = await f.callback("gmail", back.searchParams, { cookie: flow.cookie });
      expect(result.status).toBe(400);
      expect(result.json).toEqual({
        error: { code: "bad_request", message: "Authentication was cancelled or failed" },
      });
    });
  });

  describe("flow=redirect (browser navigation to our callback)", () => {
    /** A finished redirect flow: the handoff from the 302's sessionToken and the browser's cookie. */
    async function redirectFlow(provider: "gmail" | "outlook", email: string, token?: string) {
      const flow = await f.start(provider, { flow: "redirect", ...(token ? { token } : {}) });
      const back = await f.consent(flow, email);
      expect(`${back.origin}${back.pathname}`).toBe(`${f.server.url}/api/auth/${provider}/callback`);
      const result = await f.callback(provider, back.searchParams, { cookie: flow.cookie, navigation: true });
      expect(result.status).toBe(302);
      const location = new URL(result.headers.get("location") ?? "", f.server.url);
      return { location, handoff: location.searchParams.get("sessionToken") ?? "", cookie: flow.cookie };
    }
    const claim = (handoff: string | undefined, cookie?: string) =>
      f.api("POST", "/api/auth/claim", {
        body: handoff === undefined ? {} : { sessionToken: handoff },
        ...(cookie ? { headers: { cookie } } : {}),
      });

    it("answers 302 to the SPA callback page with a handoff the same browser trades for a session", async () => {
      const { location, handoff, cookie } = await redirectFlow("gmail", PEOPLE.priya);
      expect(location.origin).toBe(f.server.url);
      expect(location.pathname).toBe("/auth/callback");
      expect(location.searchParams.get("success")).toBe("true");
      expect(location.searchParams.get("provider")).toBe("gmail");
      expect(handoff).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // The value in the URL is no session: it signs no one in by itself.
      expect((await f.api("GET", "/api/auth/session", { token: handoff })).status).toBe(401);
      // Only its hash is stored.
      const stored = await f.database.database.executeSql("select ticket_hash from auth_tickets");
      expect(JSON.stringify(stored.rows)).not.toContain(handoff);
      expect(JSON.stringify(stored.rows)).toContain(sha256(handoff));

      const claimed = await claim(handoff, cookie);
      expect(claimed.status).toBe(200);
      expect(claimed.headers.get("cache-control")).toBe("no-store");
      const token = String(claimed.json?.sessionToken);
      expect(claimed.json).toMatchObject({ success: true });
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(token).not.toBe(handoff);
      expect((await f.sessionUser(token)).email).toBe(PEOPLE.priya);
    });

    it("a browser that never started the flow cannot use the link: no session, and the owner still can", async () => {
      const { handoff, cookie } = await redirectFlow("outlook", PEOPLE.casey);
      const noCookie = await claim(handoff);
      expect(noCookie.status).toBe(400);
      expect(noCookie.json).toEqual({
        error: { code: "bad_request", message: TICKET_MESSAGES.otherBrowser },
      });
      const stranger = await f.start("gmail");
      const wrongCookie = await claim(handoff, stranger.cookie);
      expect(wrongCookie.status).toBe(400);
      expect(wrongCookie.json?.error).toMatchObject({ message: TICKET_MESSAGES.otherBrowser });
      // The strangers did not burn it; the browser that signed in still finishes.
      expect((await claim(handoff, cookie)).status).toBe(200);
    });

    it("a session token from someone's link is refused, even in a browser with a flow cookie", async () => {
      const attacker = await f.signIn("gmail", PEOPLE.sam);
      const victim = await f.start("gmail");
      const refused = await claim(attacker, victim.cookie);
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({ error: { code: "bad_request", message: TICKET_MESSAGES.invalid } });
      for (const garbage of [undefined, "", "x", "A".repeat(500)]) {
        const r = await claim(garbage, victim.cookie);
        expect(r.status, String(garbage)).toBe(400);
      }
    });

    it("is single use", async () => {
      const { handoff, cookie } = await redirectFlow("gmail", PEOPLE.alex);
      expect((await claim(handoff, cookie)).status).toBe(200);
      const again = await claim(handoff, cookie);
      expect(again.status).toBe(400);
      expect(again.json).toEqual({ error: { code: "bad_request", message: TICKET_MESSAGES.reused } });
    });

    it("is short lived: two minutes (server clock)", async () => {
      const { handoff, cookie } = await redirectFlow("gmail", PEOPLE.alex);
      await f.moveClock(HANDOFF_TTL_SECONDS + 1);
      const late = await claim(handoff, cookie);
      expect(late.status).toBe(400);
      expect(late.json).toEqual({ error: { code: "bad_request", message: TICKET_MESSAGES.expired } });
    });

    it("a link through the redirect ends the starting session only when the handoff is claimed", async () => {
      const first = await f.signIn("gmail", PEOPLE.alex);
      // Jordan signed in as their own user above; a fresh mailbox keeps this test independent.
      const added = await f.emulatorAdmin("identities", {
        provider: "microsoft",
        email: "robin.redirect-link@outlook.com",
        name: "Robin Link",
      });
      expect(added.status).toBe(201);
      const { handoff, cookie } = await redirectFlow("outlook", "robin.redirect-link@outlook.com", first);
      expect((await f.api("GET", "/api/auth/session", { token: first })).status).toBe(200);
      const claimed = await claim(handoff, cookie);
      expect(claimed.status).toBe(200);
      const user = await f.sessionUser(String(claimed.json?.sessionToken));
      expect(user.email).toBe(PEOPLE.alex);
      expect(user.accounts.map((a) => a.email)).toContain("robin.redirect-link@outlook.com");
      // Calls the page sent with the old token before the new one reached it still get answers.
      expect((await f.api("GET", "/api/auth/session", { token: first })).status).toBe(200);
      await f.moveClock(LINK_GRACE_MS / 1000 + 1);
      expect((await f.api("GET", "/api/auth/session", { token: first })).json?.error).toMatchObject({
        code: "session_expired",
      });
    });

    it("answers 302 with an error, never to another site", async () => {
      const flow = await f.start("outlook", { flow: "redirect" });
      const back = await f.consent(flow, PEOPLE.casey);
      back.searchParams.set("state", "outlook.https://evil.example");
      const result = await f.callback("outlook", back.searchParams, {
        cookie: flow.cookie,
        navigation: true,
      });
      expect(result.status).toBe(302);
      const location = result.headers.get("location") ?? "";
      expect(location.startsWith("/auth/callback?")).toBe(true);
      expect(new URL(location, f.server.url).searchParams.get("error")).toBe(STATE_MESSAGES.invalid);
    });
  });

  it("rate limits the sign-in endpoints per IP with a 429 in the API error shape", async () => {
    const limited = await startTestServer(f.database.database, {
      ...envOf(f),
      AUTH_RATE_LIMIT_PER_MINUTE: "3",
    });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) {
        last = await fetch(`${limited.url}/api/auth/gmail`);
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last?.headers.get("content-type")).toContain("application/json");
      expect(await last?.json()).toEqual({
        error: { code: "rate_limited", message: expect.stringMatching(/Too many sign-in attempts/) },
      });
      // Session checks are not sign-in attempts and stay available.
      expect((await fetch(`${limited.url}/api/auth/session`)).status).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it("a provider without credentials answers 503 instead of a broken authorization URL", async () => {
    const { GOOGLE_CLIENT_ID: _id, GOOGLE_CLIENT_SECRET: _secret, ...withoutGoogle } = envOf(f);
    const outlookOnly = await startTestServer(f.database.database, withoutGoogle);
    try {
      const gmail = await fetch(`${outlookOnly.url}/api/auth/gmail`);
      expect(gmail.status).toBe(503);
      expect(await gmail.json()).toEqual({
        error: { code: "service_unavailable", message: "Gmail sign-in is not configured." },
      });
      expect((await fetch(`${outlookOnly.url}/api/auth/outlook`)).status).toBe(200);
    } finally {
      await outlookOnly.close();
    }
  });

  it("the test clock hook exists only with ENABLE_TEST_HOOKS=1", async () => {
    const plain = await startTestServer(f.database.database, { ...envOf(f), ENABLE_TEST_HOOKS: "0" });
    try {
      const r = await fetch(`${plain.url}/api/_test/clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advanceSeconds: 1 }),
      });
      expect(r.status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("signs in against an independent OIDC server (oauth2-mock-server), not just our emulator", async () => {
    const oidc = new OAuth2Server(undefined, undefined, {
      endpoints: {
        authorize: "/o/oauth2/v2/auth",
        token: "/token",
        jwks: "/oauth2/v3/certs",
        userinfo: "/v1/userinfo",
        revoke: "/revoke",
      },
    });
    await oidc.issuer.keys.generate("RS256");
    await oidc.start(0, "127.0.0.1");
    const base = String(oidc.issuer.url).replace(/\/$/, "");
    // Its id_token carries only sub "johndoe", so the address must come from userinfo.
    oidc.service.on("beforeUserinfo", (response: { body: Record<string, unknown> }) => {
      response.body = { sub: "johndoe", email: "john.doe@example.org", name: "John Doe" };
    });
    const app = await startTestServer(f.database.database, {
      ...envOf(f),
      GOOGLE_ACCOUNTS_URL: base,
      GOOGLE_OAUTH2_URL: base,
      GOOGLE_OPENID_URL: base,
      GOOGLE_APIS_URL: base,
      GOOGLE_CLIENT_ID: "independent-client",
      GOOGLE_CLIENT_SECRET: "independent-secret",
    });
    try {
      const start = await fetch(`${app.url}/api/auth/gmail`);
      const cookie = start.headers.getSetCookie()[0]?.split(";")[0] ?? "";
      const { authUrl } = (await start.json()) as { authUrl: string };
      expect(authUrl.startsWith(`${base}/o/oauth2/v2/auth?`)).toBe(true);
      // The mock authorizes at once and redirects back with a code.
      const authorize = await fetch(authUrl, { redirect: "manual" });
      const back = new URL(authorize.headers.get("location") ?? "");
      const callback = await fetch(`${app.url}/api/auth/gmail/callback?${back.searchParams}`, {
        headers: { cookie, accept: "application/json" },
      });
      const body = (await callback.json()) as { success: boolean; sessionToken: string };
      expect(callback.status, JSON.stringify(body)).toBe(200);
      const session = await fetch(`${app.url}/api/auth/session`, {
        headers: { authorization: `Bearer ${body.sessionToken}` },
      });
      expect(await session.json()).toMatchObject({
        user: { email: "john.doe@example.org", displayName: "John Doe" },
      });
    } finally {
      await app.close();
      await oidc.stop();
    }
  });
});

/** The fixture server's provider settings, for extra servers on the same database. */
function envOf(f: AuthFixture): Record<string, string> {
  return {
    DEMO_MODE: "off",
    PROVIDER_EMULATOR_URL: f.emulator.url,
    GOOGLE_CLIENT_ID: TEST_OAUTH_CLIENTS.gmail.clientId,
    GOOGLE_CLIENT_SECRET: TEST_OAUTH_CLIENTS.gmail.clientSecret,
    MICROSOFT_CLIENT_ID: TEST_OAUTH_CLIENTS.outlook.clientId,
    MICROSOFT_CLIENT_SECRET: TEST_OAUTH_CLIENTS.outlook.clientSecret,
    ENABLE_TEST_HOOKS: "1",
  };
}
