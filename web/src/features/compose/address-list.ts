import { addressEntries } from "../../../../contract/address-list.ts";

/** One recipient as the compose fields hold it. */
export interface ListedAddress {
  name: string;
  address: string;
}

/** The addresses of a list; an entry without an `@` (a bare name) is dropped. */
export function parseAddressList(input: string): ListedAddress[] {
  return addressEntries(input).flatMap((part) => {
    const open = part.lastIndexOf("<");
    const close = part.lastIndexOf(">");
    const address = (open >= 0 && close > open ? part.slice(open + 1, close) : part).trim();
    if (!address.includes("@")) return [];
    const name = open >= 0 ? part.slice(0, open).trim().replace(/^"|"$/g, "").trim() : "";
    return [{ name, address }];
  });
}

/** `Name <address>` (quoted when the name has a separator), or the bare address. */
export function formatListedAddress({ name, address }: ListedAddress): string {
  if (!name || name === address) return address;
  const safe = /[",;<>]/.test(name) ? `"${name.replace(/"/g, "")}"` : name;
  return `${safe} <${address}>`;
}

export function formatAddressList(list: readonly ListedAddress[]): string {
  return list.map(formatListedAddress).join(", ");
}
