import { BlockedUrlError, type SafeFetchOptions, safeRequest } from "../../net/safe-fetch.ts";

export type OneClickResult =
  | { ok: true; status: number }
  | { ok: false; reason: "blocked" | "redirected" | "rejected" | "unreachable"; detail: string };

/**
 * RFC 8058 one-click: a form POST of `List-Unsubscribe=One-Click`, with no cookies or
 * authorization, and the sender must not redirect. Success is any 2xx.
 */
export async function postOneClick(url: string, options: SafeFetchOptions = {}): Promise<OneClickResult> {
  try {
    const res = await safeRequest(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      },
      options,
    );
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    if (res.status >= 300 && res.status < 400) {
      return {
        ok: false,
        reason: "redirected",
        detail: `The sender answered ${res.status} (redirects are not followed)`,
      };
    }
    return { ok: false, reason: "rejected", detail: `The sender answered ${res.status}` };
  } catch (err) {
    if (err instanceof BlockedUrlError) return { ok: false, reason: "blocked", detail: err.message };
    return { ok: false, reason: "unreachable", detail: err instanceof Error ? err.message : String(err) };
  }
}
