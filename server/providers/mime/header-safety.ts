/**
 * User input that ends up in a header (subject, names) must not be able to start a new header
 * line: CR, LF and other control characters become spaces. This is the header-injection guard.
 */
export function singleLine(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return value.replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/g, " ");
}

// Deliberately strict (RFC 5322 dot-atom, ASCII): no spaces, quotes, angle brackets, commas or
// control characters, so an address can never smuggle a second recipient or a header in.
const ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;

/** True for a plain `local@domain` address that is safe to put inside angle brackets. */
export function isSafeAddress(address: string): boolean {
  return address.length <= 254 && ADDRESS.test(address);
}

/** Only `<...>` message ids survive; anything else in In-Reply-To/References is dropped. */
export function messageIds(value: string | null | undefined): string[] {
  if (!value) return [];
  return [...singleLine(value).matchAll(/<[^<>\s]{1,250}>/g)].map((match) => match[0]);
}
