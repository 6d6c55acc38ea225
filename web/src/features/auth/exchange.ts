import { ApiError, apiRequest } from "../../lib/api.ts";
import { CALLBACK_MESSAGES } from "./callback-params.ts";
import type { MailProvider } from "./providers.ts";

export type ExchangeResult = { ok: true; sessionToken: string } | { ok: false; message: string };

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
    const data = await apiRequest<{ success?: unknown; sessionToken?: unknown; message?: unknown } | null>(
      "GET",
      `/api/auth/${provider}/callback?${query}`,
      undefined,
      { on401: "ignore" },
    );
    if (data?.success === true && typeof data.sessionToken === "string" && data.sessionToken !== "") {
      return { ok: true, sessionToken: data.sessionToken };
    }
    const message = typeof data?.message === "string" && data.message ? data.message : undefined;
    return { ok: false, message: message ?? CALLBACK_MESSAGES.serverDefault };
  } catch (err) {
    console.error(err);
    // A refusal the server explained (invalid or reused state, provider down...) keeps its words.
    if (err instanceof ApiError && err.code !== undefined && err.message)
      return { ok: false, message: err.message };
    return { ok: false, message: CALLBACK_MESSAGES.exception };
  }
}
