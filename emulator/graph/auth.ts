import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context.ts";
import { bearerToken } from "../http/request.ts";
import type { Identity } from "../identities.ts";
import type { AccessTokenRecord, GrantRecord } from "../oauth/tokens.ts";
import { sendGraphError } from "./errors.ts";

export interface GraphCaller {
  identity: Identity;
  token: AccessTokenRecord;
  grant: GrantRecord;
}

/**
 * Resolves the bearer token of a Graph request, or answers 401 the way Graph does and returns
 * undefined. Later Graph mail routes use the same guard.
 */
export function authenticateGraphRequest(
  context: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
): GraphCaller | undefined {
  const now = context.clock.now();
  const token = bearerToken(request);
  if (token === undefined) {
    sendGraphError(request, reply, 401, "InvalidAuthenticationToken", "Access token is empty.", now);
    return undefined;
  }
  const lookup = context.tokens.lookupAccessToken(token, "microsoft");
  if (lookup.status === "expired") {
    sendGraphError(
      request,
      reply,
      401,
      "InvalidAuthenticationToken",
      "Lifetime validation failed, the token is expired.",
      now,
    );
    return undefined;
  }
  const identity =
    lookup.status === "active" ? context.identities.find("microsoft", lookup.grant.identityId) : undefined;
  if (lookup.status !== "active" || identity === undefined) {
    sendGraphError(
      request,
      reply,
      401,
      "InvalidAuthenticationToken",
      "Access token validation failure.",
      now,
    );
    return undefined;
  }
  return { identity, token: lookup.token, grant: lookup.grant };
}
