/** One recipient as the compose fields hold it. */
export interface ListedAddress {
  name: string;
  address: string;
}

/**
 * Splits a header-style list (`Ann <a@x.io>, "Doe, Jane" <j@y.io>, b@z.io`) on commas and
 * semicolons outside quotes and angle brackets. One linear pass: a sender controls this text.
 */
function splitList(input: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  let angle = false;
  for (const ch of input) {
    if (ch === '"') quoted = !quoted;
    else if (ch === "<" && !quoted) angle = true;
    else if (ch === ">" && !quoted) angle = false;
    if ((ch === "," || ch === ";") && !quoted && !angle) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** The addresses of a list; an entry without an `@` (a bare name) is dropped. */
export function parseAddressList(input: string): ListedAddress[] {
  return splitList(input).flatMap((part) => {
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
