import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../server.ts";
import {
  authorizeUrl,
  getJson,
  OTHER_REDIRECT_URI,
  pkcePair,
  postJson,
  postToken,
  signIn,
  startTestEmulator,
  str,
  TEST_CLIENTS,
  TEST_REDIRECT_URI,
  tokenUrl,
} from "../test-support.ts";

const client = TEST_CLIENTS.google;
const SCOPES = "openid email profile https://www.googleapis.com/auth/gmail.modify";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

interface FlowOptions {
  email?: string;
  offline?: boolean;
  consent?: boolean;
  nonce?: string;
  redirectUri?: string;
}

async function authorizeGoogle(options: FlowOptions = {}) {
  const pkce = pkcePair();
  const params: Record<string, string> = {
    client_id: client.clientId,
    redirect_uri: options.redirectUri ?? TEST_REDIRECT_URI,
    response_type: "code",
    scope: SCOPES,
    state: "state-123",
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
  };
  if (options.offline ?? true) params.access_type = "offline";
  if (options.consent ?? true) params.prompt = "consent";
  if (options.nonce !== undefined) params.nonce = options.nonce;
  const redirect = await signIn(authorizeUrl(emu.url, "google", params), {
    email: options.email ?? "alex.morgan@gmail.com",
  });
  return { redirect, code: redirect.searchParams.get("code") ?? "", verifier: pkce.verifier };
}

function exchange(code: string, verifier: string, extra: Record<string, string> = {}) {
  return postToken(tokenUrl(emu.url, "google"), {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    redirect_uri: TEST_REDIRECT_URI,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...extra,
  });
}

function refresh(refreshToken: string) {
  return postToken(tokenUrl(emu.url, "google"), {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
}

const userinfoUrl = () => `${emu.url}/openidconnect.googleapis.com/v1/userinfo`;

describe("Google authorization code flow", () => {
  it("redirects with code and state, then exchanges the code for tokens with PKCE", async () => {
    const { redirect, code, verifier } = await authorizeGoogle({ nonce: "n-42" });
    expect(`${redirect.origin}${redirect.pathname}`).toBe(TEST_REDIRECT_URI);
    expect(redirect.searchParams.get("state")).toBe("state-123");
    expect(code).toMatch(/^4\/0/);

    const token = await exchange(code, verifier);
    expect(token.status).toBe(200);
    expect(token.headers.get("cache-control")).toContain("no-store");
    expect(token.body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(str(token.body, "access_token")).toMatch(/^ya29\./);
    expect(str(token.body, "refresh_token")).toMatch(/^1\/\/0/);
    expect(str(token.body, "scope").split(" ")).toEqual(
      expect.arrayContaining([
        "openid",
        "https://www.googleapis.com/auth/userinfo.email",
        "https://www.googleapis.com/auth/userinfo.profile",
        "https://www.googleapis.com/auth/gmail.modify",
      ]),
    );

    const info = await getJson(userinfoUrl(), str(token.body, "access_token"));
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      sub: "108214679530458627391",
      email: "alex.morgan@gmail.com",
      email_verified: true,
      name: "Alex Morgan",
      given_name: "Alex",
      family_name: "Morgan",
    });
    expect(str(info.body, "picture")).toContain("/lh3.googleusercontent.com/a/");
  });

  it("issues an id_token that verifies against the JWKS named by discovery", async () => {
    const { code, verifier } = await authorizeGoogle({ nonce: "n-42", email: "priya.shah@gmail.com" });
    const token = await exchange(code, verifier);
    const discovery = await getJson(`${emu.url}/accounts.google.com/.well-known/openid-configuration`);
    expect(discovery.body.issuer).toBe(`${emu.url}/accounts.google.com`);
    expect(discovery.body.token_endpoint).toBe(`${emu.url}/oauth2.googleapis.com/token`);

    const jwks = createRemoteJWKSet(new URL(str(discovery.body, "jwks_uri")));
    const { payload, protectedHeader } = await jwtVerify(str(token.body, "id_token"), jwks, {
      issuer: str(discovery.body, "issuer"),
      audience: client.clientId,
    });
    expect(protectedHeader.alg).toBe("RS256");
    expect(protectedHeader.kid).toEqual(expect.any(String));
    expect(payload).toMatchObject({
      sub: "112675093481726354018",
      email: "priya.shah@gmail.com",
      email_verified: true,
      name: "Priya Shah",
      nonce: "n-42",
      azp: client.clientId,
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
  });

  it("accepts client credentials by HTTP Basic", async () => {
    const { code, verifier } = await authorizeGoogle();
    const token = await postToken(
      tokenUrl(emu.url, "google"),
      { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: TEST_REDIRECT_URI },
      { clientId: client.clientId, clientSecret: client.clientSecret },
    );
    expect(token.status).toBe(200);
  });
});

describe("Google token endpoint errors", () => {
  it("rejects a wrong code_verifier with invalid_grant", async () => {
    const { code } = await authorizeGoogle();
    const token = await exchange(code, pkcePair().verifier);
    expect(token.status).toBe(400);
    expect(token.body).toEqual({ error: "invalid_grant", error_description: "Invalid code verifier." });
  });

  it("rejects a missing code_verifier with invalid_grant", async () => {
    const { code } = await authorizeGoogle();
    const token = await postToken(tokenUrl(emu.url, "google"), {
      grant_type: "authorization_code",
      code,
      redirect_uri: TEST_REDIRECT_URI,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(token.status).toBe(400);
    expect(token.body.error).toBe("invalid_grant");
  });

  it("rejects a reused code and revokes the tokens issued from it", async () => {
    const { code, verifier } = await authorizeGoogle();
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    const second = await exchange(code, verifier);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe("invalid_grant");
    expect((await getJson(userinfoUrl(), str(first.body, "access_token"))).status).toBe(401);
    expect((await refresh(str(first.body, "refresh_token"))).body.error).toBe("invalid_grant");
  });

  it("rejects a code after ten minutes on the emulator clock", async () => {
    const { code, verifier } = await authorizeGoogle();
    emu.control.advanceClock(10 * 60 + 1);
    const token = await exchange(code, verifier);
    expect(token.status).toBe(400);
    expect(token.body.error).toBe("invalid_grant");
  });

  it("still accepts a code just under ten minutes old", async () => {
    const { code, verifier } = await authorizeGoogle();
    emu.control.advanceClock(9 * 60);
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  it("rejects a redirect_uri that differs from the authorize request", async () => {
    const { code, verifier } = await authorizeGoogle();
    const token = await exchange(code, verifier, { redirect_uri: OTHER_REDIRECT_URI });
    expect(token.status).toBe(400);
    expect(token.body.error).toBe("invalid_grant");
  });

  it("rejects a wrong client secret with 401 invalid_client", async () => {
    const { code, verifier } = await authorizeGoogle();
    const token = await exchange(code, verifier, { client_secret: "nope" });
    expect(token.status).toBe(401);
    expect(token.body.error).toBe("invalid_client");
  });

  it("rejects an unknown client with 401 invalid_client", async () => {
    const token = await exchange("4/0whatever", "x".repeat(43), { client_id: "someone-else" });
    expect(token.status).toBe(401);
    expect(token.body).toEqual({
      error: "invalid_client",
      error_description: "The OAuth client was not found.",
    });
  });

  it("rejects an unsupported grant_type", async () => {
    const token = await postToken(tokenUrl(emu.url, "google"), {
      grant_type: "password",
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(token.status).toBe(400);
    expect(token.body.error).toBe("unsupported_grant_type");
  });
});

describe("Google refresh tokens", () => {
  it("refreshes without rotating: the same refresh token keeps working", async () => {
    const { code, verifier } = await authorizeGoogle();
    const first = await exchange(code, verifier);
    const refreshToken = str(first.body, "refresh_token");

    const one = await refresh(refreshToken);
    expect(one.status).toBe(200);
    expect(one.body.refresh_token).toBeUndefined();
    expect(str(one.body, "access_token")).not.toBe(str(first.body, "access_token"));
    expect(one.body.id_token).toEqual(expect.any(String));

    const two = await refresh(refreshToken);
    expect(two.status).toBe(200);
    expect((await getJson(userinfoUrl(), str(two.body, "access_token"))).status).toBe(200);
  });

  it("returns no refresh token without access_type=offline", async () => {
    const { code, verifier } = await authorizeGoogle({ offline: false });
    const token = await exchange(code, verifier);
    expect(token.status).toBe(200);
    expect(token.body.refresh_token).toBeUndefined();
  });

  it("returns a refresh token only on first consent unless prompt=consent", async () => {
    const first = await authorizeGoogle({ consent: false });
    expect((await exchange(first.code, first.verifier)).body.refresh_token).toEqual(expect.any(String));
    const again = await authorizeGoogle({ consent: false });
    expect((await exchange(again.code, again.verifier)).body.refresh_token).toBeUndefined();
    const forced = await authorizeGoogle({ consent: true });
    expect((await exchange(forced.code, forced.verifier)).body.refresh_token).toEqual(expect.any(String));
  });

  it("answers invalid_grant after the token is revoked at /revoke", async () => {
    const { code, verifier } = await authorizeGoogle();
    const token = await exchange(code, verifier);
    const revoke = await fetch(`${emu.url}/oauth2.googleapis.com/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: str(token.body, "refresh_token") }).toString(),
    });
    expect(revoke.status).toBe(200);
    const after = await refresh(str(token.body, "refresh_token"));
    expect(after.status).toBe(400);
    expect(after.body).toEqual({
      error: "invalid_grant",
      error_description: "Token has been expired or revoked.",
    });
    expect((await getJson(userinfoUrl(), str(token.body, "access_token"))).status).toBe(401);
  });

  it("answers invalid_grant after the admin API revokes the identity's tokens", async () => {
    const { code, verifier } = await authorizeGoogle();
    const token = await exchange(code, verifier);
    const revoke = await postJson(`${emu.url}/_admin/tokens/revoke`, {
      email: "alex.morgan@gmail.com",
      provider: "google",
    });
    expect(revoke.status).toBe(200);
    expect((await refresh(str(token.body, "refresh_token"))).body.error).toBe("invalid_grant");
  });

  it("rejects revoking an unknown token", async () => {
    const revoke = await fetch(`${emu.url}/oauth2.googleapis.com/revoke?token=nonsense`, { method: "POST" });
    expect(revoke.status).toBe(400);
    expect(await revoke.json()).toMatchObject({ error: "invalid_token" });
  });
});

describe("Google userinfo", () => {
  it("answers 401 invalid_token with WWW-Authenticate once the access token expires", async () => {
    const { code, verifier } = await authorizeGoogle();
    const token = await exchange(code, verifier);
    const accessToken = str(token.body, "access_token");
    expect((await getJson(userinfoUrl(), accessToken)).status).toBe(200);

    emu.control.advanceClock(3600);
    const expired = await getJson(userinfoUrl(), accessToken);
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe("invalid_token");
    expect(expired.body.error_description).toEqual(expect.any(String));
    expect(expired.headers.get("www-authenticate")).toMatch(/^Bearer /);

    // The refresh token outlives the access token.
    const renewed = await refresh(str(token.body, "refresh_token"));
    expect((await getJson(userinfoUrl(), str(renewed.body, "access_token"))).status).toBe(200);
  });

  it("answers 401 for an unknown or missing token", async () => {
    expect((await getJson(userinfoUrl(), "ya29.bogus")).status).toBe(401);
    expect((await getJson(userinfoUrl())).status).toBe(401);
  });

  it("uses the id_token lifetime from the emulator clock", async () => {
    emu.control.advanceClock(7200);
    const { code, verifier } = await authorizeGoogle();
    const token = await exchange(code, verifier);
    const claims = decodeJwt(str(token.body, "id_token"));
    expect(Math.abs((claims.iat ?? 0) - (Date.now() / 1000 + 7200))).toBeLessThan(5);
  });
});
