/** What RFC 2369 / RFC 8058 headers allow us to do for one email. */
export interface UnsubscribeOptions {
  /** RFC 8058: POST `List-Unsubscribe=One-Click` to this https URL. */
  oneClickUrl?: string;
  /** A mailto we can send from the user's own account: address and subject only. */
  mailto?: { address: string; subject: string };
  /** An https link without one-click: never fetched blindly, given to the user to open. */
  webUrl?: string;
}

const ONE_CLICK = /^\s*List-Unsubscribe\s*=\s*One-Click\s*$/i;

/**
 * Splits `<a>, <b>` into URIs, white space removed; text outside angle brackets is ignored, as RFC
 * 2369 asks. One pass: a pattern rescanned the rest of the header from each "<" that no ">"
 * follows, and traded spaces between its quantifiers (issue 34).
 */
export function bracketedUris(header: string): string[] {
  const uris: string[] = [];
  for (let open = header.indexOf("<"); open !== -1; open = header.indexOf("<", open + 1)) {
    const close = header.indexOf(">", open + 1);
    // No ">" after this "<": none after any later "<" either.
    if (close === -1) break;
    if (close === open + 1) continue;
    uris.push(header.slice(open + 1, close).replace(/\s+/g, ""));
    open = close;
  }
  return uris;
}

function parseMailto(uri: string): UnsubscribeOptions["mailto"] {
  const body = uri.slice("mailto:".length);
  const [rawAddress = "", query = ""] = body.split("?", 2);
  let address: string;
  try {
    address = decodeURIComponent(rawAddress).trim();
  } catch {
    return undefined;
  }
  // One plain address only: a list of recipients or header injection attempts are refused.
  if (!/^[^\s@,;<>"]+@(?=[^\s@,;<>"]+\.[^\s@,;<>"])[^\s@,;<>"]+$/.test(address)) return undefined;
  let subject = "unsubscribe";
  for (const pair of query.split("&")) {
    const [k = "", v = ""] = pair.split("=", 2);
    if (k.toLowerCase() !== "subject") continue;
    try {
      const decoded = decodeURIComponent(v.replace(/\+/g, " "))
        .replace(/[\r\n]+/g, " ")
        .trim();
      if (decoded) subject = decoded.slice(0, 200);
    } catch {
      // keep the default subject
    }
  }
  return { address, subject };
}

/** Reads List-Unsubscribe and List-Unsubscribe-Post (either may be missing). */
export function parseListUnsubscribe(
  listUnsubscribe?: string | null,
  listUnsubscribePost?: string | null,
): UnsubscribeOptions {
  const result: UnsubscribeOptions = {};
  if (!listUnsubscribe) return result;
  const oneClick = ONE_CLICK.test(listUnsubscribePost ?? "");
  for (const uri of bracketedUris(listUnsubscribe)) {
    const lower = uri.toLowerCase();
    if (lower.startsWith("mailto:") && !result.mailto) {
      const mailto = parseMailto(uri);
      if (mailto) result.mailto = mailto;
    } else if (lower.startsWith("https://")) {
      if (oneClick && !result.oneClickUrl) result.oneClickUrl = uri;
      else if (!result.webUrl) result.webUrl = uri;
    }
  }
  return result;
}
