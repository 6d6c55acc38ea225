import type { FastifyRequest } from "fastify";
import type { Identity } from "../identities.ts";
import type { Mailbox } from "../mailbox/mailbox.ts";

// Lives apart from plugin.ts so route files can read the caller without importing the plugin
// that registers them (which would be an import cycle).
export interface GmailCaller {
  readonly identity: Identity;
  readonly mailbox: Mailbox;
  readonly scopes: readonly string[];
}

export const callers = new WeakMap<FastifyRequest, GmailCaller>();

/** The authenticated caller; only valid inside Gmail API routes. */
export function gmailCaller(request: FastifyRequest): GmailCaller {
  const caller = callers.get(request);
  if (caller === undefined) throw new Error("gmailCaller outside an authenticated Gmail route");
  return caller;
}
