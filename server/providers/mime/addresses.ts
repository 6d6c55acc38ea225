import { addressParser, decodeWords } from "postal-mime";
import type { Address } from "../mail-provider.ts";
import { encodeHeaderText } from "./encoded-word.ts";
import { isSafeAddress, singleLine } from "./header-safety.ts";

/** Parses an address header (encoded words, quoted names, groups flattened) with postal-mime. */
export function parseAddresses(value: string | undefined | null): Address[] {
  if (!value) return [];
  return addressParser(value, { flatten: true }).flatMap((entry) =>
    "address" in entry && typeof entry.address === "string" && entry.address !== ""
      ? [{ name: entry.name ?? "", address: entry.address }]
      : [],
  );
}

/** Decodes RFC 2047 encoded words in a header value; plain values come back unchanged. */
export function decodeHeader(value: string | undefined | null): string {
  if (!value) return "";
  return value.includes("=?") ? decodeWords(value) : value;
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
