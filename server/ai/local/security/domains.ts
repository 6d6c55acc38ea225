import { domainToUnicode } from "node:url";

// Second-level labels under which registrations happen one level deeper (example.co.uk).
const SECOND_LEVEL = new Set([
  "co.uk",
  "org.uk",
  "ac.uk",
  "gov.uk",
  "me.uk",
  "ltd.uk",
  "plc.uk",
  "com.au",
  "net.au",
  "org.au",
  "co.nz",
  "co.jp",
  "ne.jp",
  "or.jp",
  "co.in",
  "co.za",
  "com.br",
  "com.mx",
  "com.ar",
  "com.cn",
  "com.hk",
  "com.sg",
  "com.tr",
  "co.kr",
  "com.tw",
]);

/**
 * The text before the first ">" or white space, as `.replace(/[>\s].*$/, "")` gave it, in one
 * pass: that pattern rescanned the rest of the line from every space of a long run (issue 34).
 * "." stops at a line end and "$" is the end of the text, so with a line end in the text the cut
 * falls on the last one.
 */
function untilSpaceOrBracket(text: string): string {
  const lastLine = Math.max(...["\n", "\r", "\u2028", "\u2029"].map((end) => text.lastIndexOf(end)));
  const cut = lastLine !== -1 ? lastLine : text.search(/[>\s]/);
  return cut === -1 ? text : text.slice(0, cut);
}

/** Lower-cased host of an address ("Alice <a@b.com>" or "a@b.com"); "" when there is none. */
export function domainOfAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at === -1) return "";
  return untilSpaceOrBracket(address.slice(at + 1))
    .replace(/\.$/, "")
    .toLowerCase();
}

/** Approximate registrable domain (eTLD+1) without the full public-suffix list. */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, "").split(".").filter(Boolean);
  if (labels.length <= 2) return labels.join(".");
  const lastTwo = labels.slice(-2).join(".");
  return SECOND_LEVEL.has(lastTwo) ? labels.slice(-3).join(".") : lastTwo;
}

/** The label people read as "the name" of a domain: paypal in www.paypal.co.uk. */
export function nameLabel(host: string): string {
  return registrableDomain(host).split(".")[0] ?? "";
}

/** Unicode form of a host (punycode decoded); the input when it cannot be decoded. */
export function unicodeHost(host: string): string {
  if (!host.includes("xn--")) return host;
  const decoded = domainToUnicode(host);
  return decoded === "" ? host : decoded;
}

export function isIpHost(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[");
}

/** Host of an http(s) URL, lower-cased; null for other schemes or garbage. */
export function hostOfUrl(url: string): string | null {
  const match = /^\s*(?:https?:)?\/\/([^/?#\s]+)/i.exec(url);
  if (!match?.[1]) return null;
  // Userinfo ("paypal.com@evil.example") is not the host: the part after the last @ is.
  const authority = match[1];
  const host = authority.slice(authority.lastIndexOf("@") + 1).replace(/:\d+$/, "");
  return host.toLowerCase();
}

export function sameSite(a: string, b: string): boolean {
  return registrableDomain(a) === registrableDomain(b);
}
