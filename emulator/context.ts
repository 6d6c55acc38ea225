import type { FastifyRequest } from "fastify";
import type { Clock } from "./clock.ts";
import { publicBaseUrl } from "./http/request.ts";
import type { IdentityDirectory } from "./identities.ts";
import type { ClientRegistry } from "./oauth/clients.ts";
import type { FlowSealer } from "./oauth/flow.ts";
import type { SigningKey } from "./oauth/signing.ts";
import type { TokenStore } from "./oauth/tokens.ts";

/**
 * Everything one emulator instance owns. Route modules receive it instead of reaching for module
 * globals, so two emulators in one test process never share codes, tokens or clocks.
 */
export interface EmulatorContext {
  readonly clock: Clock;
  readonly identities: IdentityDirectory;
  readonly clients: ClientRegistry;
  readonly tokens: TokenStore;
  readonly flows: FlowSealer;
  /** Resolved before the server is ready (an onReady hook awaits them). */
  readonly keys: { readonly google: Promise<SigningKey>; readonly microsoft: Promise<SigningKey> };
  readonly accessTokenTtlSeconds: number;
  /** `{EMU}` when configured; otherwise derived per request. */
  readonly publicUrl: string | undefined;
}

export function emulatorBaseUrl(context: EmulatorContext, request: FastifyRequest): string {
  return publicBaseUrl(request, context.publicUrl);
}
