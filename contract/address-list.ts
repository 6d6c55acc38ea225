/**
 * Address lists as people type them and headers carry them (`Ann <a@x.io>, "Doe, Jane" <j@y.io>;
 * b@z.io`), split the same way by the compose fields and the server. No zod: pure functions.
 */

/**
 * Splits on commas and semicolons outside quotes and angle brackets ("Doe, Jane" <j@x.io> stays
 * one). `complete` holds the trimmed, non-empty entries before the last separator; `rest` the text
 * after it (still being typed). One linear pass: a sender controls this text.
 */
export function splitAddressEntries(input: string): { complete: string[]; rest: string } {
  const complete: string[] = [];
  let current = "";
  let quoted = false;
  let angle = false;
  for (const ch of input) {
    if (ch === '"') quoted = !quoted;
    else if (ch === "<" && !quoted) angle = true;
    else if (ch === ">" && !quoted) angle = false;
    if ((ch === "," || ch === ";") && !quoted && !angle) {
      if (current.trim() !== "") complete.push(current.trim());
      current = "";
    } else current += ch;
  }
  return { complete, rest: current };
}

/** Every entry of a list, trimmed, the unfinished last one included, empty ones (", ,") dropped. */
export function addressEntries(input: string): string[] {
  const { complete, rest } = splitAddressEntries(input);
  return rest.trim() === "" ? complete : [...complete, rest.trim()];
}
