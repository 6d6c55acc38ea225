import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Provider } from "../identities.ts";
import { OAuthError } from "./errors.ts";

export const clientRegistrationSchema = z.object({
  provider: z.enum(["google", "microsoft"]),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  redirectUris: z
    .array(z.string().refine((uri) => URL.canParse(uri), { message: "must be an absolute URL" }))
    .min(1),
  /** Shown on the consent screen; defaults to the client id. */
  name: z.string().min(1).optional(),
});

/** One OAuth client the emulator accepts, as registered in the provider's developer console. */
export type ClientRegistration = z.input<typeof clientRegistrationSchema>;

export interface RegisteredClient {
  readonly provider: Provider;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUris: readonly string[];
  readonly name: string;
}

export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
}

/** Validates registrations once at start, so a bad EMULATOR_CLIENTS_JSON fails loudly. */
export class ClientRegistry {
  readonly #clients = new Map<string, RegisteredClient>();

  constructor(registrations: readonly ClientRegistration[]) {
    for (const registration of registrations) {
      const parsed = clientRegistrationSchema.parse(registration);
      const key = `${parsed.provider}:${parsed.clientId}`;
      if (this.#clients.has(key)) throw new Error(`Client ${key} is registered twice`);
      this.#clients.set(key, { ...parsed, name: parsed.name ?? parsed.clientId });
    }
  }

  find(provider: Provider, clientId: string): RegisteredClient | undefined {
    return this.#clients.get(`${provider}:${clientId}`);
  }

  list(): RegisteredClient[] {
    return [...this.#clients.values()];
  }

  /** Client authentication at the token endpoint (client_secret_post or client_secret_basic). */
  authenticate(provider: Provider, credentials: ClientCredentials): RegisteredClient {
    if (credentials.clientId === undefined) {
      throw new OAuthError("missing_parameter", { param: "client_id" });
    }
    const client = this.find(provider, credentials.clientId);
    if (client === undefined) throw new OAuthError("unknown_client", { value: credentials.clientId });
    if (credentials.clientSecret === undefined) {
      throw new OAuthError("missing_client_secret", { value: client.clientId });
    }
    if (!constantTimeEquals(credentials.clientSecret, client.clientSecret)) {
      throw new OAuthError("bad_client_secret", { value: client.clientId });
    }
    return client;
  }
}

function constantTimeEquals(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Reads client credentials from HTTP Basic (RFC 6749 2.3.1: form-urlencoded id and secret) or
 * from the form body. Two different client ids in one request is a malformed request.
 */
export function readClientCredentials(
  authorization: string | undefined,
  body: Record<string, string>,
): ClientCredentials {
  const bodyId = body.client_id === "" ? undefined : body.client_id;
  const bodySecret = body.client_secret === "" ? undefined : body.client_secret;
  const match = authorization === undefined ? null : /^Basic\s+(\S+)\s*$/i.exec(authorization);
  if (match?.[1] === undefined) return { clientId: bodyId, clientSecret: bodySecret };

  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new OAuthError("invalid_request", { message: "Malformed HTTP Basic credentials." });
  let clientId: string;
  let clientSecret: string;
  try {
    clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
    clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
  } catch {
    throw new OAuthError("invalid_request", { message: "Malformed HTTP Basic credentials." });
  }
  if (bodyId !== undefined && bodyId !== clientId) {
    throw new OAuthError("invalid_request", { message: "client_id in the body differs from HTTP Basic." });
  }
  return { clientId, clientSecret };
}
