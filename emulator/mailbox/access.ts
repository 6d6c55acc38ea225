import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context.ts";
import { bearerToken } from "../http/request.ts";
import type { Identity, Provider } from "../identities.ts";

export type AccessFailure = "missing" | "unknown" | "expired" | "revoked";

export type Access =
  | { ok: true; identity: Identity; scopes: readonly string[] }
  | { ok: false; failure: AccessFailure };

/** Validates the bearer access token against the emulator's token store and clock. */
export function authenticate(context: EmulatorContext, request: FastifyRequest, provider: Provider): Access {
  return authenticateToken(context, bearerToken(request), provider);
}

/** The same check for a bearer token already taken from its header (inner batch calls). */
export function authenticateToken(
  context: EmulatorContext,
  value: string | undefined,
  provider: Provider,
): Access {
  if (value === undefined) return { ok: false, failure: "missing" };
  const lookup = context.tokens.lookupAccessToken(value, provider);
  if (lookup.status !== "active") return { ok: false, failure: lookup.status };
  const identity = context.identities.find(provider, lookup.grant.identityId);
  if (identity === undefined) return { ok: false, failure: "revoked" };
  return { ok: true, identity, scopes: lookup.token.scopes };
}

const GMAIL_FULL = "https://mail.google.com/";
const GMAIL = "https://www.googleapis.com/auth/gmail.";

export type GmailNeed = "read" | "modify" | "send" | "compose" | "search";

/** Whether Google would let these scopes make this kind of call. */
export function gmailAllows(scopes: readonly string[], need: GmailNeed): boolean {
  const has = (scope: string) => scopes.includes(scope);
  if (has(GMAIL_FULL) || has(`${GMAIL}modify`)) return true;
  switch (need) {
    case "read":
      return has(`${GMAIL}readonly`) || has(`${GMAIL}metadata`);
    // gmail.metadata may read headers and labels but not search: `q` is refused.
    case "search":
      return has(`${GMAIL}readonly`);
    case "send":
      return has(`${GMAIL}send`) || has(`${GMAIL}compose`);
    case "compose":
      return has(`${GMAIL}compose`);
    case "modify":
      return false;
  }
}

export type GraphNeed = "read" | "write" | "send";

/** Graph permissions, compared without the resource prefix and case-insensitively. */
export function graphAllows(scopes: readonly string[], need: GraphNeed): boolean {
  const names = new Set(
    scopes.map((scope) => scope.replace(/^https:\/\/graph\.microsoft\.com\//i, "").toLowerCase()),
  );
  if (names.has(".default")) return true;
  if (need === "send") return names.has("mail.send");
  if (need === "write") return names.has("mail.readwrite");
  return names.has("mail.read") || names.has("mail.readwrite");
}
