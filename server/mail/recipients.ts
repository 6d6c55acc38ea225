import { addressEntries } from "../../contract/address-list.ts";
import type { Address } from "../providers/mail-provider.ts";
import { parseAddresses } from "../providers/mime/addresses.ts";
import { isSafeAddress } from "../providers/mime/header-safety.ts";

/** Splits a typed list on commas and semicolons outside quotes and angle brackets. */
export const splitList = addressEntries;

/**
 * Parses what the user typed into To/Cc/Bcc: `a@x.io, Name <b@y.io>`. Returns the addresses, or
 * the first entry that is not exactly one plain, header-safe address.
 */
export function parseRecipients(
  input: string,
): { ok: true; addresses: Address[] } | { ok: false; bad: string } {
  const addresses: Address[] = [];
  for (const part of splitList(input)) {
    // Line breaks and control characters have no place in an address someone typed.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    if (/[\u0000-\u001f\u007f]/.test(part)) return { ok: false, bad: part };
    const parsed = parseAddresses(part);
    const only = parsed[0];
    if (parsed.length !== 1 || !only || !isSafeAddress(only.address)) return { ok: false, bad: part };
    addresses.push({ name: only.name, address: only.address });
  }
  return { ok: true, addresses };
}
