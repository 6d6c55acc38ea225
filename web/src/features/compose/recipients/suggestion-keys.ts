/**
 * Which suggestion the recipient field highlights, and what Enter does (issue 36): while the list
 * is open one option is always highlighted (the first, until the arrows move), and Enter picks it,
 * as Gmail and Outlook do; with the list closed Enter turns the typed text into a chip.
 */

/** The highlighted option's index, or -1 when the list is closed or empty. */
export function highlightedIndex(open: boolean, active: number, count: number): number {
  if (!open || count === 0) return -1;
  return active >= 0 && active < count ? active : 0;
}

export type EnterAction = { kind: "pick"; index: number } | { kind: "commit" } | { kind: "none" };

/** What Enter does in the field. */
export function enterAction(open: boolean, active: number, count: number, typing: string): EnterAction {
  const index = highlightedIndex(open, active, count);
  if (index >= 0) return { kind: "pick", index };
  return typing.trim() !== "" ? { kind: "commit" } : { kind: "none" };
}
