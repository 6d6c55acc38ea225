import { addressParser, decodeWords } from "postal-mime";
import type { Address } from "../mail-provider.ts";
import { encodeHeaderText } from "./encoded-word.ts";
import { isSafeAddress, singleLine } from "./header-safety.ts";

/**
 * The most of one header value we read. Real headers are far shorter (a To line of a thousand
 * recipients is about 40 KB); a sender can write megabytes, which postal-mime parses and decodes
 * in time proportional to their length on the sync's thread (1 MB of To took 0.8 s).
 */
export const MAX_HEADER_CHARS = 64 * 1024;

/** An address list cut to MAX_HEADER_CHARS at a comma, so no address is cut in half. */
function boundedList(value: string): string {
  if (value.length <= MAX_HEADER_CHARS) return value;
  const comma = value.lastIndexOf(",", MAX_HEADER_CHARS);
  return value.slice(0, comma > 0 ? comma : MAX_HEADER_CHARS);
}

/** Parses an address header (encoded words, quoted names, groups flattened) with postal-mime. */
export function parseAddresses(value: string | undefined | null): Address[] {
  if (!value) return [];
  return addressParser(boundedList(value), { flatten: true }).flatMap((entry) =>
    "address" in entry && typeof entry.address === "string" && entry.address !== ""
      ? [{ name: entry.name ?? "", address: entry.address }]
      : [],
  );
}

/** Decodes RFC 2047 encoded words in a header value cut to MAX_HEADER_CHARS; plain values come back unchanged. */
export function decodeHeader(value: string | undefined | null): string {
  if (!value) return "";
  const bounded = value.length > MAX_HEADER_CHARS ? value.slice(0, MAX_HEADER_CHARS) : value;
  return bounded.includes("=?") ? decodeWords(bounded) : bounded;
}

// Characters that force a display name into a quoted string (RFC 5322 specials).
const SPECIALS = /[()<>[\]:;@\\,."]/;

/**
 * `Name <local@domain>` for a header. The address must be a plain safe address (throws
 * RangeError otherwise); the name is quoted or encoded so it cannot break out of the field.
 */
export function formatAddress(address: Address): string {
  if (!isSafeAddress(address.address)) throw new RangeError("invalid email address");
  const name = singleLine(address.name).trim();
  if (name === "" || name === address.address) return address.address;
  const encoded = encodeHeaderText(name);
  if (encoded !== name) return `${encoded} <${address.address}>`;
  const display = SPECIALS.test(name) ? `"${name.replace(/["\\]/g, "\\$&")}"` : name;
  return `${display} <${address.address}>`;
}
