import type { Address } from "../../providers/mail-provider.ts";
import { parseRecipients, splitList } from "../recipients.ts";

/**
 * A half-written recipient field: the entries that are addresses go into the draft, the others
 * (still being typed) are named back so compose keeps them. A draft never fails on them.
 */
export function draftRecipients(text: string): { addresses: Address[]; skipped: string[] } {
  const addresses: Address[] = [];
  const skipped: string[] = [];
  for (const part of splitList(text)) {
    const parsed = parseRecipients(part);
    const one = parsed.ok ? parsed.addresses[0] : undefined;
    if (one) addresses.push(one);
    else skipped.push(part);
  }
  return { addresses, skipped };
}

/** Addresses as a person types them back into compose: `Name <a@x.io>, b@y.io`. */
export function recipientsText(addresses: readonly Address[]): string {
  return addresses
    .map(({ name, address }) => {
      const shown = name.trim();
      if (shown === "" || shown === address) return address;
      return /[",;<>@]/.test(shown)
        ? `"${shown.replace(/["\\]/g, "")}" <${address}>`
        : `${shown} <${address}>`;
    })
    .join(", ");
}
