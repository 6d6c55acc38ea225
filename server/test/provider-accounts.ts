import type { Provider, RunningEmulator } from "../../emulator/server.ts";
import {
  authorizeUrl,
  pkcePair,
  postToken,
  signIn,
  str,
  TEST_CLIENTS,
  TEST_REDIRECT_URI,
  tokenUrl,
} from "../../emulator/test-support.ts";
import type { AccountTokenService } from "../auth/account-tokens.ts";

const SCOPES: Record<Provider, string> = {
  google:
    "openid email profile https://www.googleapis.com/auth/gmail.modify https://www.googleapis.com/auth/gmail.send",
  microsoft: "openid profile email offline_access User.Read Mail.ReadWrite Mail.Send",
};

/**
 * A connected account for provider tests: signed in through the emulator's real OAuth pages,
 * with a token source shaped like AccountTokenService.getAccessToken that refreshes through the
 * emulator's token endpoint when forced (and keeps Microsoft's rotated refresh token).
 */
export interface TestAccountTokens extends Pick<AccountTokenService, "getAccessToken"> {
  /** How many forced refreshes the adapters asked for. */
  readonly refreshes: number;
}

/** The calendar-only grants the app asks for when a calendar is connected. */
export const CALENDAR_SCOPES: Record<Provider, string> = {
  google:
    "openid email https://www.googleapis.com/auth/calendar.readonly https://www.googleapis.com/auth/calendar.events",
  microsoft: "openid offline_access User.Read Calendars.ReadWrite",
};

export async function connectTestAccount(
  emulator: RunningEmulator,
  provider: Provider,
  email: string,
  scope: string = SCOPES[provider],
): Promise<TestAccountTokens> {
  const client = TEST_CLIENTS[provider];
  const pkce = pkcePair();
  const params: Record<string, string> = {
    client_id: client.clientId,
    redirect_uri: TEST_REDIRECT_URI,
    response_type: "code",
    scope,
    state: "provider-test",
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
  };
  if (provider === "google") Object.assign(params, { access_type: "offline", prompt: "consent" });
  const redirect = await signIn(authorizeUrl(emulator.url, provider, params), { email });
  const exchanged = await postToken(tokenUrl(emulator.url, provider), {
    grant_type: "authorization_code",
    code: redirect.searchParams.get("code") ?? "",
    code_verifier: pkce.verifier,
    redirect_uri: TEST_REDIRECT_URI,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  if (exchanged.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(exchanged.body)}`);
  let accessToken = str(exchanged.body, "access_token");
  let refreshToken = str(exchanged.body, "refresh_token");
  let refreshes = 0;
  // Like AccountTokenService: one refresh at a time, shared by concurrent callers, because
  // Microsoft rotates refresh tokens and a second parallel refresh would use a dead one.
  let inFlight: Promise<string> | undefined;
  async function refresh(): Promise<string> {
    refreshes += 1;
    const refreshed = await postToken(tokenUrl(emulator.url, provider), {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    if (refreshed.status !== 200) throw new Error(`refresh failed: ${JSON.stringify(refreshed.body)}`);
    accessToken = str(refreshed.body, "access_token");
    if (typeof refreshed.body.refresh_token === "string") refreshToken = refreshed.body.refresh_token;
    return accessToken;
  }
  return {
    get refreshes() {
      return refreshes;
    },
    getAccessToken(_userId, _accountId, options = {}) {
      if (!options.forceRefresh) return Promise.resolve(accessToken);
      inFlight ??= refresh().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
}

/** The emulator's /_admin API (tests only). */
export function emulatorAdmin(emulator: RunningEmulator) {
  return async function admin<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const response = await fetch(`${emulator.url}/_admin/${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300)
      throw new Error(`admin ${method} ${path} answered ${response.status}: ${text}`);
    return (text === "" ? {} : JSON.parse(text)) as T;
  };
}
