import type { MailProvider } from "../../contract/auth.ts";
import { domainErrorFor, ProviderError, toProviderError } from "../auth/errors.ts";
import { DomainError } from "../http/errors.ts";

/**
 * The user-facing error for a failed provider call: 409 provider_reauth_required when only the
 * user can fix it, 502 provider_unavailable otherwise. `what` says what was being done.
 */
export function providerFailure(err: unknown, provider: MailProvider, what: string): DomainError {
  let base: DomainError;
  if (err instanceof DomainError) base = err;
  else if (err instanceof Error && err.cause instanceof ProviderError)
    base = domainErrorFor(err.cause, provider);
  else base = domainErrorFor(toProviderError(err, `${provider} ${what}`), provider);
  const code = base.code === "provider_reauth_required" ? base.code : "provider_unavailable";
  const error = new DomainError(code, `${capitalise(what)} failed: ${base.message}`);
  error.cause = err;
  return error;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Of several failures, the one to report: a reconnect request beats a retry-later. */
export function worstFailure(errors: readonly DomainError[]): DomainError | undefined {
  return errors.find((e) => e.code === "provider_reauth_required") ?? errors[0];
}
