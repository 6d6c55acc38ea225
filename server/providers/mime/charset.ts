/** Charset labels mail uses that WHATWG TextDecoder spells differently or not at all. */
const ALIASES: Record<string, string> = {
  "unicode-1-1-utf-7": "utf-8",
  "utf-7": "utf-8",
  ascii: "windows-1252",
  "us-ascii": "windows-1252",
  "iso-8859-8-i": "iso-8859-8",
  "ks_c_5601-1987": "euc-kr",
  cp1252: "windows-1252",
  latin1: "windows-1252",
};

/**
 * Decodes body bytes in the part's declared charset. Unknown or missing charsets fall back to
 * UTF-8 when the bytes are valid UTF-8, else Windows-1252 (what old mail usually meant).
 */
export function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
  const label = (charset ?? "").trim().toLowerCase().replace(/^"|"$/g, "");
  const name = ALIASES[label] ?? label;
  if (name !== "") {
    try {
      return new TextDecoder(name).decode(bytes);
    } catch {
      // Unknown label: fall through to the guess below.
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** Reads the charset parameter of a Content-Type value. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "");
  return match?.[1];
}
