/**
 * Spec section 5: an item is trimmed, must be non-empty and is not added twice (compared without
 * case, as the server does). Returns the new list, or null when nothing is added.
 */
export function addChip(items: readonly string[], raw: string): string[] | null {
  const item = raw.trim();
  if (!item) return null;
  const lower = item.toLowerCase();
  if (items.some((i) => i.toLowerCase() === lower)) return null;
  return [...items, item];
}
