import type { FastifyRequest } from "fastify";
import type { Identity } from "../../identities.ts";
import type { Mailbox } from "../../mailbox/mailbox.ts";

// Lives apart from plugin.ts so route files can read the caller without importing the plugin
// that registers them (which would be an import cycle).
export interface GraphCaller {
  readonly identity: Identity;
  readonly mailbox: Mailbox;
}

export const callers = new WeakMap<FastifyRequest, GraphCaller>();

export function graphCaller(request: FastifyRequest): GraphCaller {
  const caller = callers.get(request);
  if (caller === undefined) throw new Error("graphCaller outside an authenticated Graph route");
  return caller;
}
