import type { FastifyRequest } from "fastify";

/**
 * The emulator's public base URL (`{EMU}`). A configured one wins; otherwise the request's own
 * scheme and host are used, so discovery documents and issuers match whatever base URL the
 * caller was configured with (localhost vs 127.0.0.1).
 */
export function publicBaseUrl(request: FastifyRequest, configured: string | undefined): string {
  if (configured !== undefined) return configured.replace(/\/+$/, "");
  return `${request.protocol}://${request.host}`;
}

/** The token from `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  return bearerOf(request.headers.authorization);
}

/** The token of an Authorization header value. */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
