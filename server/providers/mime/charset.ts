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

// Node 20's TextDecoder decodes windows-1252 as ISO-8859-1, so 0x80-0x9F (curly quotes, dashes,
// euro sign: common in old mail) come out as C1 control characters. These are the real ones.
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decodeWindows1252(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes)
    out += byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return out;
}

/**
 * Decodes body bytes in the part's declared charset. Unknown or missing charsets fall back to
 * UTF-8 when the bytes are valid UTF-8, else Windows-1252 (what old mail usually meant).
 */
export function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
  const label = (charset ?? "").trim().toLowerCase().replace(/^"|"$/g, "");
  const name = ALIASES[label] ?? label;
  if (name === "windows-1252" || name === "iso-8859-1") return decodeWindows1252(bytes);
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
    return decodeWindows1252(bytes);
  }
}

/** Reads the charset parameter of a Content-Type value. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "");
  return match?.[1];
}
