import type { FastifyRequest } from "fastify";
import { DomainError } from "../http/errors.ts";

/**
 * Says why an OAuth flow (sign-in, calendar connect) failed without logging codes, states,
 * tickets or tokens: only the error id, its message and the provider failure's message. Shared
 * so both flows keep the same rule about what may reach the logs.
 */
export function logFlowFailure(request: FastifyRequest, provider: string, err: unknown, flow: string): void {
  if (err instanceof DomainError) {
    const cause = err.cause instanceof Error ? err.cause.message : undefined;
    request.log.warn({ provider, code: err.code, reason: err.message, cause }, `${flow} failed`);
  } else {
    request.log.error({ provider, err }, `${flow} failed unexpectedly`);
  }
}
