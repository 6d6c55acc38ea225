import { bearerOf } from "../http/request.ts";
import { authenticateToken, type GmailNeed, gmailAllows } from "../mailbox/access.ts";
import type { MailServices } from "../mailbox/services.ts";
import type { GmailCaller } from "./caller.ts";
import { GMAIL_ERRORS, GOOGLE_WWW_AUTHENTICATE, type GoogleApiErrorBody } from "./errors.ts";

/** What a Gmail API call is checked on before its method runs. */
export interface GmailCall {
  authorization: string | undefined;
  /** The `{userId}` path segment, decoded; undefined for calls without one. */
  userId: string | undefined;
  q: unknown;
  cost: number;
  need: GmailNeed | undefined;
}

export type GmailCheck =
  | { ok: true; caller: GmailCaller }
  | { ok: false; error: GoogleApiErrorBody; wwwAuthenticate?: string };

/**
 * Order matters and follows Google: authentication (401), the userId check, scopes (403), and
 * only then the per-user quota (429), which a refused call is not charged for.
 */
export function checkGmailCall(mail: MailServices, call: GmailCall): GmailCheck {
  const access = authenticateToken(mail.context, bearerOf(call.authorization), "google");
  if (!access.ok) {
    return { ok: false, error: GMAIL_ERRORS.unauthenticated(), wwwAuthenticate: GOOGLE_WWW_AUTHENTICATE };
  }
  const { userId } = call;
  if (
    userId !== undefined &&
    userId !== "me" &&
    userId.toLowerCase() !== access.identity.email.toLowerCase()
  ) {
    return { ok: false, error: GMAIL_ERRORS.delegationDenied(userId) };
  }
  if (call.need !== undefined && !gmailAllows(access.scopes, call.need)) {
    return { ok: false, error: GMAIL_ERRORS.insufficientScope() };
  }
  if (typeof call.q === "string" && call.q !== "" && !gmailAllows(access.scopes, "search")) {
    return { ok: false, error: GMAIL_ERRORS.metadataScopeQ() };
  }
  if (!mail.quota.charge(access.identity.email.toLowerCase(), call.cost)) {
    return { ok: false, error: GMAIL_ERRORS.rateLimited() };
  }
  return {
    ok: true,
    caller: { identity: access.identity, mailbox: mail.mailboxOf(access.identity), scopes: access.scopes },
  };
}
