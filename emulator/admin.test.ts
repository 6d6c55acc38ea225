import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildEmulator, emulatorControl, type RunningEmulator } from "./server.ts";
import {
  authorizeUrl,
  getJson,
  pkcePair,
  postJson,
  postToken,
  signIn,
  startTestEmulator,
  str,
  TEST_CLIENTS,
  TEST_REDIRECT_URI,
  tokenUrl,
} from "./test-support.ts";

const ADMIN_ROUTES = [
  ["POST", "/_admin/tokens/expire"],
  ["POST", "/_admin/tokens/revoke"],
  ["POST", "/_admin/clock"],
  ["GET", "/_admin/state"],
  ["POST", "/_admin/reset"],
  ["POST", "/_admin/identities"],
] as const;

describe("admin API switch", () => {
  it("is off by default: every admin route answers 404", async () => {
    const saved = process.env.EMULATOR_ADMIN;
    delete process.env.EMULATOR_ADMIN;
    const app = buildEmulator({ clients: [] });
    try {
      for (const [method, url] of ADMIN_ROUTES) {
        const response = await app.inject({ method, url, payload: method === "POST" ? {} : undefined });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    } finally {
      await app.close();
      if (saved !== undefined) process.env.EMULATOR_ADMIN = saved;
    }
  });

  it("stays off when built with admin: false even if the environment enables it", async () => {
    const saved = process.env.EMULATOR_ADMIN;
    process.env.EMULATOR_ADMIN = "1";
    const app = buildEmulator({ clients: [], admin: false });
    try {
      expect((await app.inject({ method: "GET", url: "/_admin/state" })).statusCode).toBe(404);
    } finally {
      await app.close();
      if (saved === undefined) delete process.env.EMULATOR_ADMIN;
      else process.env.EMULATOR_ADMIN = saved;
    }
  });

  it("turns on with EMULATOR_ADMIN=1", async () => {
    const saved = process.env.EMULATOR_ADMIN;
    process.env.EMULATOR_ADMIN = "1";
    const app = buildEmulator({ clients: [] });
    try {
      expect((await app.inject({ method: "GET", url: "/_admin/state" })).statusCode).toBe(200);
    } finally {
      await app.close();
      if (saved === undefined) delete process.env.EMULATOR_ADMIN;
      else process.env.EMULATOR_ADMIN = saved;
    }
  });
});

describe("admin API", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(() => emu.close());
  beforeEach(() => emu.control.reset());

  async function signInGoogle(email: string) {
    const pkce = pkcePair();
    const redirect = await signIn(
      authorizeUrl(emu.url, "google", {
        client_id: TEST_CLIENTS.google.clientId,
        redirect_uri: TEST_REDIRECT_URI,
        response_type: "code",
        scope: "openid email profile",
        access_type: "offline",
        prompt: "consent",
        code_challenge: pkce.challenge,
        code_challenge_method: "S256",
      }),
      { email },
    );
    const token = await postToken(tokenUrl(emu.url, "google"), {
      grant_type: "authorization_code",
      code: redirect.searchParams.get("code") ?? "",
      code_verifier: pkce.verifier,
      redirect_uri: TEST_REDIRECT_URI,
      client_id: TEST_CLIENTS.google.clientId,
      client_secret: TEST_CLIENTS.google.clientSecret,
    });
    expect(token.status).toBe(200);
    return token.body;
  }

  const userinfo = () => `${emu.url}/openidconnect.googleapis.com/v1/userinfo`;

  it("reports counts in /_admin/state", async () => {
    await signInGoogle("alex.morgan@gmail.com");
    const state = await getJson(`${emu.url}/_admin/state`);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      identities: { google: 3, microsoft: 2 },
      authorizationCodes: { total: 1, redeemed: 1 },
      accessTokens: { total: 1, active: 1 },
      refreshTokens: { total: 1, active: 1 },
      clockOffsetSeconds: 0,
    });
  });

  it("expires every access token of an identity by email", async () => {
    const tokens = await signInGoogle("alex.morgan@gmail.com");
    const other = await signInGoogle("priya.shah@gmail.com");
    const response = await postJson(`${emu.url}/_admin/tokens/expire`, { email: "alex.morgan@gmail.com" });
    expect(await response.json()).toEqual({ expired: 1 });
    expect((await getJson(userinfo(), str(tokens, "access_token"))).status).toBe(401);
    expect((await getJson(userinfo(), str(other, "access_token"))).status).toBe(200);
  });

  it("moves the clock forward and rejects going backwards", async () => {
    const tokens = await signInGoogle("alex.morgan@gmail.com");
    const moved = await postJson(`${emu.url}/_admin/clock`, { advanceSeconds: 3599 });
    expect(moved.status).toBe(200);
    expect((await getJson(userinfo(), str(tokens, "access_token"))).status).toBe(200);
    await postJson(`${emu.url}/_admin/clock`, { advanceSeconds: 1 });
    expect((await getJson(userinfo(), str(tokens, "access_token"))).status).toBe(401);
    expect((await postJson(`${emu.url}/_admin/clock`, { advanceSeconds: -5 })).status).toBe(400);
  });

  it("adds an identity that can then sign in", async () => {
    const added = await postJson(`${emu.url}/_admin/identities`, {
      provider: "google",
      email: "new.person@gmail.com",
      name: "New Person",
    });
    expect(added.status).toBe(201);
    const identity = (await added.json()) as Record<string, unknown>;
    expect(str(identity, "id")).toMatch(/^\d{21}$/);

    const tokens = await signInGoogle("new.person@gmail.com");
    const info = await getJson(userinfo(), str(tokens, "access_token"));
    expect(info.body).toMatchObject({ sub: identity.id, email: "new.person@gmail.com", given_name: "New" });

    expect(
      (
        await postJson(`${emu.url}/_admin/identities`, {
          provider: "google",
          email: "new.person@gmail.com",
          name: "X",
        })
      ).status,
    ).toBe(409);
  });

  it("reset forgets tokens, added identities and the clock offset", async () => {
    const tokens = await signInGoogle("alex.morgan@gmail.com");
    emu.control.addIdentity({ provider: "microsoft", email: "temp@outlook.com", name: "Temp User" });
    await postJson(`${emu.url}/_admin/clock`, { advanceSeconds: 60 });
    const reset = await fetch(`${emu.url}/_admin/reset`, { method: "POST" });
    expect(reset.status).toBe(204);
    expect((await getJson(userinfo(), str(tokens, "access_token"))).status).toBe(401);
    const state = await getJson(`${emu.url}/_admin/state`);
    expect(state.body).toMatchObject({ identities: { microsoft: 2 }, clockOffsetSeconds: 0 });
  });

  it("validates admin bodies", async () => {
    expect((await postJson(`${emu.url}/_admin/tokens/expire`, {})).status).toBe(400);
    expect(
      (await postJson(`${emu.url}/_admin/tokens/revoke`, { email: "a@b.c", provider: "yahoo" })).status,
    ).toBe(400);
    expect(
      (await postJson(`${emu.url}/_admin/tokens/revoke`, { email: "nobody@gmail.com", provider: "google" }))
        .status,
    ).toBe(404);
  });

  it("exposes the same controls in-process", () => {
    expect(emulatorControl(emu.app)).toBe(emu.control);
  });
});
