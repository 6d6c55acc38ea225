/**
 * Just enough RFC 5322 header handling for the index and for presenting headers: unfolding,
 * RFC 2047 encoded words and address lists. The MIME tree lives in mime.ts.
 */

export interface HeaderField {
  readonly name: string;
  readonly value: string;
}

/** Splits a message (as a binary string) into its header block and body at the first blank line. */
export function splitHeaderBlock(text: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(text);
  if (match === null) return { head: text, body: "" };
  return { head: text.slice(0, match.index), body: text.slice(match.index + match[0].length) };
}

/** Unfolds continuation lines and returns fields in order, values raw (not decoded). */
export function parseHeaderBlock(head: string): HeaderField[] {
  const fields: HeaderField[] = [];
  let name: string | undefined;
  let value = "";
  for (const line of head.split(/\r?\n/)) {
    if ((line.startsWith(" ") || line.startsWith("\t")) && name !== undefined) {
      value += ` ${line.trim()}`;
      continue;
    }
    if (name !== undefined) fields.push({ name, value: value.trim() });
    const colon = line.indexOf(":");
    // The mbox "From " separator line and garbage lines have no colon before a space.
    if (colon <= 0 || /\s/.test(line.slice(0, colon))) {
      name = undefined;
      continue;
    }
    name = line.slice(0, colon);
    value = line.slice(colon + 1);
  }
  if (name !== undefined) fields.push({ name, value: value.trim() });
  return fields;
}

export function headerValue(fields: readonly HeaderField[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return fields.find((field) => field.name.toLowerCase() === lower)?.value;
}

function decodeCharset(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase() === "unknown-8bit" ? "latin1" : charset).decode(bytes);
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
}

function decodeQEncoding(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] ?? "";
    if (char === "_") bytes.push(0x20);
    else if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(char.charCodeAt(0) & 0xff);
  }
  return Uint8Array.from(bytes);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

/** Decodes RFC 2047 encoded words; whitespace between two adjacent encoded words is dropped. */
export function decodeWords(value: string): string {
  if (!value.includes("=?")) return value;
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(ENCODED_WORD, (_all, charset: string, kind, data) => {
      const cleanCharset = charset.split("*")[0] ?? charset;
      const bytes =
        String(kind).toLowerCase() === "b"
          ? Buffer.from(String(data), "base64")
          : decodeQEncoding(String(data));
      return decodeCharset(bytes, cleanCharset);
    });
}

/** Encodes a header value as one RFC 2047 word when it is not plain ASCII. */
export function encodeWord(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII range check
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  return `=?UTF-8?B?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

export interface Address {
  readonly name: string;
  readonly address: string;
}

/** Parses `Name <addr>, "Last, First" <addr2>, bare@addr` leniently; invalid parts are skipped. */
export function parseAddressList(value: string | undefined): Address[] {
  if (value === undefined || value.trim() === "") return [];
  const decoded = decodeWords(value);
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  let angle = 0;
  for (const char of decoded) {
    if (char === '"') quoted = !quoted;
    if (!quoted && char === "<") angle += 1;
    if (!quoted && char === ">") angle = Math.max(0, angle - 1);
    if (char === "," && !quoted && angle === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  const out: Address[] = [];
  for (const part of parts) {
    const trimmed = part.trim();
    if (trimmed === "") continue;
    const angled = /^(.*)<([^>]*)>/.exec(trimmed);
    if (angled !== null) {
      const address = (angled[2] ?? "").trim();
      const name = (angled[1] ?? "").trim().replace(/^"(.*)"$/, "$1");
      if (address !== "") out.push({ name: name || address, address });
      continue;
    }
    // "addr (Comment Name)" is the old style, common in the 2002 corpus.
    const commented = /^(\S+@\S+)\s*\((.*)\)\s*$/.exec(trimmed);
    if (commented !== null) {
      out.push({ name: (commented[2] ?? "").trim() || (commented[1] ?? ""), address: commented[1] ?? "" });
      continue;
    }
    out.push({ name: trimmed, address: trimmed });
  }
  return out;
}

/** `Name <addr>` for a header, quoting names with specials. */
export function formatAddress(address: Address): string {
  if (address.name === "" || address.name === address.address) return address.address;
  const name = /[(),.:;<>@[\]"\\]/.test(address.name)
    ? `"${address.name.replace(/["\\]/g, "\\$&")}"`
    : encodeWord(address.name);
  return `${name} <${address.address}>`;
}
