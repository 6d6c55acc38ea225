import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MICROSOFT_CONSUMER_TENANT_ID, type RunningEmulator } from "../server.ts";
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

const client = TEST_CLIENTS.microsoft;
const SCOPES = "openid profile email offline_access User.Read Mail.ReadWrite Mail.Send Calendars.Read";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

async function authorizeMicrosoft(options: { scope?: string; email?: string; nonce?: string } = {}) {
  const pkce = pkcePair();
  const params: Record<string, string> = {
    client_id: client.clientId,
    redirect_uri: TEST_REDIRECT_URI,
    response_type: "code",
    scope: options.scope ?? SCOPES,
    state: "ms-state",
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    response_mode: "query",
  };
  if (options.nonce !== undefined) params.nonce = options.nonce;
  const redirect = await signIn(authorizeUrl(emu.url, "microsoft", params), {
    email: options.email ?? "jordan.lee@outlook.com",
  });
  return { redirect, code: redirect.searchParams.get("code") ?? "", verifier: pkce.verifier };
}

function exchange(code: string, verifier: string, extra: Record<string, string> = {}) {
  return postToken(tokenUrl(emu.url, "microsoft"), {
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
  return postToken(tokenUrl(emu.url, "microsoft"), {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
}

const meUrl = () => `${emu.url}/graph.microsoft.com/v1.0/me`;

/** Microsoft's error body: AADSTS code in the description and in error_codes, plus trace ids. */
function expectAadError(body: Record<string, unknown>, error: string, code: number) {
  expect(body).toMatchObject({ error, error_codes: [code] });
  expect(str(body, "error_description")).toMatch(new RegExp(`^AADSTS${code}: `));
  expect(str(body, "timestamp")).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);
  expect(str(body, "trace_id")).toMatch(/^[0-9a-f-]{36}$/);
  expect(str(body, "correlation_id")).toMatch(/^[0-9a-f-]{36}$/);
}

describe("Microsoft authorization code flow", () => {
  it("exchanges a code for tokens and reads /me", async () => {
    const { redirect, code, verifier } = await authorizeMicrosoft();
    expect(redirect.searchParams.get("state")).toBe("ms-state");
    const token = await exchange(code, verifier);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, ext_expires_in: 3600 });
    expect(str(token.body, "refresh_token")).toEqual(expect.any(String));
    expect(str(token.body, "scope")).toContain("https://graph.microsoft.com/Mail.ReadWrite");

    const me = await getJson(meUrl(), str(token.body, "access_token"));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: "3c9f1b2a7d4e8f60",
      displayName: "Jordan Lee",
      mail: "jordan.lee@outlook.com",
      userPrincipalName: "jordan.lee@outlook.com",
      givenName: "Jordan",
      surname: "Lee",
    });

    const selected = await getJson(`${meUrl()}?$select=id,mail`, str(token.body, "access_token"));
    expect(Object.keys(selected.body).sort()).toEqual(["@odata.context", "id", "mail"]);
  });

  it("issues an id_token with the consumer-tenant issuer that verifies against the keys", async () => {
    const { code, verifier } = await authorizeMicrosoft({
      nonce: "ms-nonce",
      email: "casey.kim@outlook.com",
    });
    const token = await exchange(code, verifier);
    const discovery = await getJson(
      `${emu.url}/login.microsoftonline.com/common/v2.0/.well-known/openid-configuration`,
    );
    expect(discovery.body.issuer).toBe(`${emu.url}/login.microsoftonline.com/{tenantid}/v2.0`);
    expect(discovery.body.jwks_uri).toBe(`${emu.url}/login.microsoftonline.com/common/discovery/v2.0/keys`);

    const jwks = createRemoteJWKSet(new URL(str(discovery.body, "jwks_uri")));
    const { payload } = await jwtVerify(str(token.body, "id_token"), jwks, {
      issuer: `${emu.url}/login.microsoftonline.com/${MICROSOFT_CONSUMER_TENANT_ID}/v2.0`,
      audience: client.clientId,
    });
    expect(payload).toMatchObject({
      tid: MICROSOFT_CONSUMER_TENANT_ID,
      oid: "00000000-0000-0000-a41d-7e09b2c5f318",
      preferred_username: "casey.kim@outlook.com",
      email: "casey.kim@outlook.com",
      name: "Casey Kim",
      nonce: "ms-nonce",
      ver: "2.0",
    });
    expect(payload.sub).toEqual(expect.any(String));
  });

  it("accepts the consumers and organizations tenant segments", async () => {
    for (const tenant of ["consumers", "organizations"]) {
      const response = await fetch(
        `${emu.url}/login.microsoftonline.com/${tenant}/v2.0/.well-known/openid-configuration`,
      );
      expect(response.status).toBe(200);
    }
    const { code, verifier } = await authorizeMicrosoft();
    const token = await postToken(`${emu.url}/login.microsoftonline.com/consumers/oauth2/v2.0/token`, {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: TEST_REDIRECT_URI,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(token.status).toBe(200);
    const bad = await fetch(
      `${emu.url}/login.microsoftonline.com/contoso/v2.0/.well-known/openid-configuration`,
    );
    expect(bad.status).toBe(400);
  });

  it("returns no refresh token without offline_access", async () => {
    const { code, verifier } = await authorizeMicrosoft({ scope: "openid profile User.Read" });
    const token = await exchange(code, verifier);
    expect(token.status).toBe(200);
    expect(token.body.refresh_token).toBeUndefined();
  });
});

describe("Microsoft token endpoint errors", () => {
  it("rejects a wrong code_verifier in Microsoft's error shape", async () => {
    const { code } = await authorizeMicrosoft();
    const token = await exchange(code, pkcePair().verifier);
    expect(token.status).toBe(400);
    expectAadError(token.body, "invalid_grant", 50148);
  });

  it("rejects a reused code with AADSTS54005", async () => {
    const { code, verifier } = await authorizeMicrosoft();
    expect((await exchange(code, verifier)).status).toBe(200);
    const second = await exchange(code, verifier);
    expect(second.status).toBe(400);
    expectAadError(second.body, "invalid_grant", 54005);
  });

  it("rejects an expired code with AADSTS70008", async () => {
    const { code, verifier } = await authorizeMicrosoft();
    emu.control.advanceClock(11 * 60);
    const token = await exchange(code, verifier);
    expectAadError(token.body, "invalid_grant", 70008);
  });

  it("rejects a redirect_uri that differs from the authorize request", async () => {
    const { code, verifier } = await authorizeMicrosoft();
    const token = await exchange(code, verifier, { redirect_uri: OTHER_REDIRECT_URI });
    expect(token.status).toBe(400);
    expectAadError(token.body, "invalid_grant", 500112);
  });

  it("rejects a wrong client secret with 401 invalid_client", async () => {
    const { code, verifier } = await authorizeMicrosoft();
    const token = await exchange(code, verifier, { client_secret: "wrong" });
    expect(token.status).toBe(401);
    expectAadError(token.body, "invalid_client", 7000215);
  });

  it("echoes client-request-id as the correlation id", async () => {
    const correlation = "0b6f5f52-3a4c-4c36-9d3c-0a1c2b3d4e5f";
    const response = await fetch(tokenUrl(emu.url, "microsoft"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "client-request-id": correlation },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: "bogus",
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }).toString(),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.correlation_id).toBe(correlation);
  });
});

describe("Microsoft refresh tokens", () => {
  it("rotates the refresh token on each use and rejects the old one", async () => {
    const { code, verifier } = await authorizeMicrosoft();
    const first = await exchange(code, verifier);
    const original = str(first.body, "refresh_token");

    const rotated = await refresh(original);
    expect(rotated.status).toBe(200);
    const next = str(rotated.body, "refresh_token");
    expect(next).not.toBe(original);
    expect((await getJson(meUrl(), str(rotated.body, "access_token"))).status).toBe(200);

    const replay = await refresh(original);
    expect(replay.status).toBe(400);
    expectAadError(replay.body, "invalid_grant", 70000);

    expect((await refresh(next)).status).toBe(200);
  });

  it("answers invalid_grant after the admin API revokes the identity", async () => {
    const { code, verifier } = await authorizeMicrosoft();
    const token = await exchange(code, verifier);
    const revoke = await postJson(`${emu.url}/_admin/tokens/revoke`, {
      email: "jordan.lee@outlook.com",
      provider: "microsoft",
    });
    expect(revoke.status).toBe(200);
    const after = await refresh(str(token.body, "refresh_token"));
    expect(after.status).toBe(400);
    expectAadError(after.body, "invalid_grant", 50173);
    expect((await getJson(meUrl(), str(token.body, "access_token"))).status).toBe(401);
  });

  it("refuses to widen scopes on refresh", async () => {
    const { code, verifier } = await authorizeMicrosoft({ scope: "openid offline_access User.Read" });
    const token = await exchange(code, verifier);
    const widened = await postToken(tokenUrl(emu.url, "microsoft"), {
      grant_type: "refresh_token",
      refresh_token: str(token.body, "refresh_token"),
      scope: "Mail.ReadWrite",
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(widened.status).toBe(400);
    expect(widened.body.error).toBe("invalid_scope");
  });
});

describe("Graph /me authentication", () => {
  it("answers 401 InvalidAuthenticationToken once the access token expires", async () => {
    const { code, verifier } = await authorizeMicrosoft();
    const token = await exchange(code, verifier);
    const accessToken = str(token.body, "access_token");
    const admin = await postJson(`${emu.url}/_admin/tokens/expire`, { accessToken });
    expect(await admin.json()).toEqual({ expired: 1 });

    const me = await getJson(meUrl(), accessToken);
    expect(me.status).toBe(401);
    const error = me.body.error as Record<string, unknown>;
    expect(error.code).toBe("InvalidAuthenticationToken");
    expect(error.message).toEqual(expect.any(String));
  });

  it("answers 401 for a missing token and for a Google token", async () => {
    expect((await getJson(meUrl())).status).toBe(401);
    expect((await getJson(meUrl(), "ya29.not-a-graph-token")).status).toBe(401);
  });
});
