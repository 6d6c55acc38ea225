import type { Email } from "../../../../contract/mail.ts";

/**
 * Which messages open expanded: every unread one and the newest. Older read messages stay one
 * line each (sender, snippet, date).
 */
export function initiallyExpanded(messages: readonly Pick<Email, "id" | "isRead">[]): Set<string> {
  const expanded = new Set(messages.filter((m) => !m.isRead).map((m) => m.id));
  const newest = messages.at(-1);
  if (newest) expanded.add(newest.id);
  return expanded;
}

/** The newest unread message, else the newest: where the reader scrolls to. */
export function focusTarget(messages: readonly Pick<Email, "id" | "isRead">[]): string | null {
  return messages.findLast((m) => !m.isRead)?.id ?? messages.at(-1)?.id ?? null;
}
