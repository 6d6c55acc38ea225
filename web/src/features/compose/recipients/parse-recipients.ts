import { addressEntries, splitAddressEntries } from "../../../../../contract/address-list.ts";
/**
 * What the person typed into To, Cc or Bcc, as recipients (issue 36). The compose state keeps
 * the comma-separated text the server parses (server/mail/recipients.ts); this reads the same
 * text into chips and checks each address before anything is sent. No regular expressions: what
 * is pasted here can be long, and every step is one pass over it.
 */

export interface Recipient {
  /** The entry as written, e.g. `"Doe, Jane" <jane@x.io>`; it is what goes back into the text. */
  raw: string;
  name: string;
  /** The address, or the raw entry when there is none to read. */
  address: string;
  valid: boolean;
}

/** RFC 5321's longest path. */
const ADDRESS_MAX = 320;
const FORBIDDEN = new Set([..."<>()[]\\,;:\"'` "]);

/** Entries before the last separator, and the text after it (still being typed). */
export const splitEntries = splitAddressEntries;

/** Every entry of a list, the unfinished last one included. */
export const allEntries = addressEntries;

/** A plain address: one @, something on both sides, a dot inside the domain, nothing that needs quoting. */
export function isValidAddress(address: string): boolean {
  if (address.length === 0 || address.length > ADDRESS_MAX) return false;
  const at = address.indexOf("@");
  if (at <= 0 || at !== address.lastIndexOf("@")) return false;
  const domain = address.slice(at + 1);
  const dot = domain.indexOf(".");
  if (dot <= 0 || domain.endsWith(".") || domain.includes("..")) return false;
  for (const ch of address) {
    if (FORBIDDEN.has(ch) || ch.charCodeAt(0) < 0x21 || ch.charCodeAt(0) === 0x7f) return false;
  }
  return true;
}

function unquote(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    return trimmed.slice(1, -1).replaceAll('\\"', '"').trim();
  }
  return trimmed;
}

/** One entry: `a@x.io`, `<a@x.io>`, `Name <a@x.io>` or `"Last, First" <a@x.io>`. */
export function parseEntry(entry: string): Recipient {
  const raw = entry.trim();
  if (raw.endsWith(">")) {
    const open = raw.lastIndexOf("<");
    if (open >= 0) {
      const address = raw.slice(open + 1, -1).trim();
      const name = unquote(raw.slice(0, open));
      // A name with an unbalanced quote is not one the server can read either.
      const quotes = [...raw.slice(0, open)].filter((c) => c === '"').length;
      return { raw, name, address, valid: quotes % 2 === 0 && isValidAddress(address) };
    }
  }
  return { raw, name: "", address: raw, valid: isValidAddress(raw) };
}

export function parseRecipients(input: string): Recipient[] {
  return allEntries(input).map(parseEntry);
}

/** How a picked suggestion is written: quoted when the name holds a character that needs it. */
export function formatRecipient(name: string, address: string): string {
  const clean = name.replaceAll('"', "").trim();
  if (clean === "" || clean.toLowerCase() === address.toLowerCase()) return address;
  let plain = true;
  for (const ch of clean) if (FORBIDDEN.has(ch) && ch !== " ") plain = false;
  for (const ch of ".@") if (clean.includes(ch)) plain = false;
  return plain ? `${clean} <${address}>` : `"${clean}" <${address}>`;
}

/** The compose state's text for chips and what is still being typed. */
export function joinRecipients(chips: readonly Recipient[], typing: string): string {
  const parts = chips.map((c) => c.raw);
  if (typing.trim() !== "") parts.push(typing.trim());
  return parts.join(", ");
}

/** The inline error for a field, or null: the first entry that is not an address. */
export function recipientError(input: string): string | null {
  const bad = parseRecipients(input).find((r) => !r.valid);
  return bad ? `"${bad.raw}" is not a valid email address` : null;
}
