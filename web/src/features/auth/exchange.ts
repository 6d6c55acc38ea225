import { ApiError, apiRequest } from "../../lib/api.ts";
import { CALLBACK_MESSAGES } from "./callback-params.ts";
import type { MailProvider } from "./providers.ts";

export type ExchangeResult = { ok: true; sessionToken: string } | { ok: false; message: string };

type CallbackAnswer = { success?: unknown; sessionToken?: unknown; message?: unknown } | null;

function resultOf(data: CallbackAnswer): ExchangeResult {
  if (data?.success === true && typeof data.sessionToken === "string" && data.sessionToken !== "") {
    return { ok: true, sessionToken: data.sessionToken };
  }
  const message = typeof data?.message === "string" && data.message ? data.message : undefined;
  return { ok: false, message: message ?? CALLBACK_MESSAGES.serverDefault };
}

function failureOf(err: unknown): ExchangeResult {
  console.error(err);
  // A refusal the server explained (invalid or reused state, provider down...) keeps its words;
  // an unhandled failure on the server ("internal") is an exception like any other.
  if (err instanceof ApiError && err.code !== undefined && err.code !== "internal" && err.message)
    return { ok: false, message: err.message };
  return { ok: false, message: CALLBACK_MESSAGES.exception };
}

/**
 * GET /api/auth/{provider}/callback?code&state. A refusal carries the server's own message
 * (default 'Authentication failed'); any other exception becomes
 * 'Authentication failed. Please try again.'
 */
export async function exchangeCode(
  provider: MailProvider,
  code: string,
  state: string,
): Promise<ExchangeResult> {
  const query = new URLSearchParams({ code, state }).toString();
  try {
    return resultOf(
      await apiRequest<CallbackAnswer>("GET", `/api/auth/${provider}/callback?${query}`, undefined, {
        on401: "ignore",
      }),
    );
  } catch (err) {
    return failureOf(err);
  }
}

/**
 * POST /api/auth/claim: trades the server redirect's single-use handoff for a session. The
 * server answers only in the browser whose sign-in produced it (the flow cookie rides along),
 * so a link carrying someone else's token signs no one in.
 */
export async function claimHandoff(handoff: string): Promise<ExchangeResult> {
  try {
    return resultOf(
      await apiRequest<CallbackAnswer>(
        "POST",
        "/api/auth/claim",
        { sessionToken: handoff },
        { on401: "ignore" },
      ),
    );
  } catch (err) {
    return failureOf(err);
  }
}
