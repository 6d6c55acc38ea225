import type { FastifyReply } from "fastify";

/** Markup that is already escaped; only `html` and `rawHtml` make one. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

type HtmlValue = SafeHtml | string | number | undefined | readonly SafeHtml[];

/**
 * Template tag that escapes every interpolated string, so request parameters (redirect_uri,
 * state, login_hint) echoed into error pages can never inject markup.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    if (value instanceof SafeHtml) out += value.value;
    else if (Array.isArray(value)) out += value.map((part: SafeHtml) => part.value).join("");
    else if (value !== undefined) out += escapeHtml(String(value));
    out += strings[index + 1] ?? "";
  });
  return new SafeHtml(out);
}

export function rawHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * Headers for every emulator page. No Cross-Origin-Opener-Policy (the app opens sign-in in a
 * popup and polls it), and no CSP form-action, because Chrome applies form-action to the redirect
 * that follows "Allow", which must reach the app's own origin.
 */
export function sendHtml(reply: FastifyReply, status: number, page: SafeHtml): FastifyReply {
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("x-frame-options", "DENY")
    .header("referrer-policy", "no-referrer")
    .header(
      "content-security-policy",
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
    )
    .send(page.value);
}
