import type { FastifyReply, FastifyRequest } from "fastify";
import { RANDOM_TOKEN_PATTERN, randomToken } from "./random.ts";
import { STATE_TTL_SECONDS } from "./state-store.ts";

/**
 * The browser-flow cookie ties an OAuth state to the browser that asked for it. httpOnly so
 * page scripts cannot read it; SameSite=Lax so it still rides on the provider's top-level
 * redirect back to us; Secure whenever the app is served over https.
 */
export const FLOW_COOKIE = "mailwise_oauth_flow";

export function readFlowId(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== FLOW_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return RANDOM_TOKEN_PATTERN.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * The browser's flow id, reusing a live one so two sign-ins started side by side (Gmail in one
 * tab, Outlook in another) both finish; the cookie's lifetime is refreshed to cover the new state.
 */
export function issueFlowId(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const flowId = readFlowId(request) ?? randomToken();
  const attributes = ["Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${STATE_TTL_SECONDS}`];
  if (secure) attributes.push("Secure");
  reply.header("set-cookie", `${FLOW_COOKIE}=${flowId}; ${attributes.join("; ")}`);
  return flowId;
}
