import { randomBytes } from "node:crypto";
import type { Provider } from "./identities.ts";
import { s256Challenge } from "./oauth/pkce.ts";
import { type RunningEmulator, type StartEmulatorOptions, startEmulator } from "./server.ts";

/**
 * Helpers for tests that drive the emulator over real HTTP, the way the app and a browser do.
 * The sign-in helper submits the same forms a person would click through.
 */

export const TEST_REDIRECT_URI = "http://localhost:3000/api/auth/callback";
export const OTHER_REDIRECT_URI = "http://localhost:3000/api/auth/other-callback";

export const TEST_CLIENTS = {
  google: { provider: "google", clientId: "test-google", clientSecret: "test-google-secret" },
  microsoft: { provider: "microsoft", clientId: "test-microsoft", clientSecret: "test-microsoft-secret" },
} as const;

export function startTestEmulator(options: Partial<StartEmulatorOptions> = {}): Promise<RunningEmulator> {
  return startEmulator({
    clients: Object.values(TEST_CLIENTS).map((client) => ({
      ...client,
      redirectUris: [TEST_REDIRECT_URI, OTHER_REDIRECT_URI],
      name: "Mailwise Test",
    })),
    admin: true,
    ...options,
  });
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: s256Challenge(verifier) };
}

export function authorizeUrl(
  emulatorUrl: string,
  provider: Provider,
  params: Record<string, string>,
): string {
  const path =
    provider === "google"
      ? "/accounts.google.com/o/oauth2/v2/auth"
      : "/login.microsoftonline.com/common/oauth2/v2.0/authorize";
  return `${emulatorUrl}${path}?${new URLSearchParams(params).toString()}`;
}

export function tokenUrl(emulatorUrl: string, provider: Provider): string {
  return provider === "google"
    ? `${emulatorUrl}/oauth2.googleapis.com/token`
    : `${emulatorUrl}/login.microsoftonline.com/common/oauth2/v2.0/token`;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

export function hiddenField(page: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(page);
  if (match?.[1] === undefined) throw new Error(`No hidden field ${name} in page:\n${page}`);
  return decodeEntities(match[1]);
}

/** The value of the account-chooser button whose text contains the email address. */
export function identityButtonValue(page: string, email: string): string {
  for (const match of page.matchAll(
    /<button type="submit" name="identity" value="([^"]*)"[^>]*>([\s\S]*?)<\/button>/g,
  )) {
    if (match[1] !== undefined && match[2]?.includes(email)) return decodeEntities(match[1]);
  }
  throw new Error(`No account button for ${email}`);
}

async function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

export interface SignInOptions {
  email: string;
  decision?: "allow" | "cancel";
}

/**
 * Opens the authorize URL, picks the account, answers the consent screen and returns the
 * redirect's Location as a URL.
 */
export async function signIn(authorizationUrl: string, options: SignInOptions): Promise<URL> {
  const chooser = await fetch(authorizationUrl, { redirect: "manual" });
  const chooserHtml = await chooser.text();
  if (chooser.status !== 200) throw new Error(`authorize answered ${chooser.status}: ${chooserHtml}`);
  const action = authorizationUrl.split("?")[0] ?? authorizationUrl;
  const consent = await postForm(action, {
    flow: hiddenField(chooserHtml, "flow"),
    identity: identityButtonValue(chooserHtml, options.email),
  });
  const consentHtml = await consent.text();
  if (consent.status !== 200) throw new Error(`chooser step answered ${consent.status}: ${consentHtml}`);
  const decided = await postForm(action, {
    flow: hiddenField(consentHtml, "flow"),
    decision: options.decision ?? "allow",
  });
  const location = decided.headers.get("location");
  if (decided.status !== 302 || location === null) throw new Error(`consent answered ${decided.status}`);
  return new URL(location);
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function postToken(
  url: string,
  fields: Record<string, string>,
  basicAuth?: { clientId: string; clientSecret: string },
): Promise<JsonResponse> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (basicAuth !== undefined) {
    const credentials = `${encodeURIComponent(basicAuth.clientId)}:${encodeURIComponent(basicAuth.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
  }
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

export async function getJson(url: string, accessToken?: string): Promise<JsonResponse> {
  const response = await fetch(url, {
    headers: accessToken === undefined ? {} : { authorization: `Bearer ${accessToken}` },
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

export async function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Reads a string property of a JSON body, failing the test if it is missing. */
export function str(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== "string") throw new Error(`Expected string ${key} in ${JSON.stringify(body)}`);
  return value;
}
