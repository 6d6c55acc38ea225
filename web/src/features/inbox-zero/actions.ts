/** Inbox Zero mode's four actions, how a swipe or a key picks one, and what the hints show. */
export type InboxZeroAction = "archive" | "delete" | "star" | "flag";

/** A swipe counts once it travels this far (or 30% of the card on a narrow screen). */
export const SWIPE_THRESHOLD_PX = 96;

/**
 * The action a drag of (dx, dy) pixels over a card `width` wide picks: right archives, left
 * deletes, up stars, down flags; the longer axis decides. Null when it did not go far enough.
 */
export function swipeAction(dx: number, dy: number, width: number): InboxZeroAction | null {
  const threshold = Math.min(SWIPE_THRESHOLD_PX, Math.max(width, 1) * 0.3);
  if (Math.abs(dx) >= Math.abs(dy)) {
    if (dx >= threshold) return "archive";
    if (dx <= -threshold) return "delete";
    return null;
  }
  if (dy <= -threshold) return "star";
  if (dy >= threshold) return "flag";
  return null;
}

/** The keys, with the dashboard's letters (e archive, s star, # delete) and the arrows. */
const KEYS: Record<string, InboxZeroAction> = {
  ArrowRight: "archive",
  e: "archive",
  ArrowLeft: "delete",
  "#": "delete",
  Delete: "delete",
  ArrowUp: "star",
  s: "star",
  ArrowDown: "flag",
  f: "flag",
};

export type KeyCommand = InboxZeroAction | "undo";

/** What a key press does in the mode; modified keys other than Ctrl/Cmd+Z do nothing. */
export function keyCommand(
  event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey">,
): KeyCommand | null {
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (event.altKey) return null;
  if (event.ctrlKey || event.metaKey) return key === "z" ? "undo" : null;
  if (key === "z" || key === "u") return "undo";
  return KEYS[key] ?? null;
}

/** The visible hints, in the order the buttons show them. */
export const ACTION_HINTS: ReadonlyArray<{
  action: InboxZeroAction;
  label: string;
  arrow: string;
  direction: string;
  key: string;
}> = [
  { action: "delete", label: "Delete", arrow: "←", direction: "Swipe left", key: "#" },
  { action: "star", label: "Star", arrow: "↑", direction: "Swipe up", key: "S" },
  { action: "flag", label: "Flag", arrow: "↓", direction: "Swipe down", key: "F" },
  { action: "archive", label: "Archive", arrow: "→", direction: "Swipe right", key: "E" },
];

export const ACTION_LABEL: Record<InboxZeroAction, string> = {
  archive: "Archived",
  delete: "Deleted",
  star: "Starred",
  flag: "Flagged",
};
