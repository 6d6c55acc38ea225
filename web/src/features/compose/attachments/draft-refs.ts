import type { ComposeAttachmentRef } from "../../../../../contract/compose.ts";
import type { DraftAttachment } from "../../../../../contract/drafts.ts";

/** One ref's identity, for comparing refs that are equal in value. */
export const refKey = (ref: ComposeAttachmentRef) => JSON.stringify(ref);

export interface RefSwap {
  from: ComposeAttachmentRef;
  to: ComposeAttachmentRef;
}

/**
 * What a draft save answers, as swaps: each ref it was sent (upload, forwarded original, or a
 * draft file whose id the provider changed) becomes the draft's file at the same position.
 */
export function savedSwaps(
  sent: readonly ComposeAttachmentRef[],
  saved: readonly DraftAttachment[],
): RefSwap[] {
  return sent.flatMap((from, i) => {
    const file = saved[i];
    return file ? [{ from, to: { kind: "draft" as const, attachmentId: file.attachmentId } }] : [];
  });
}

/** Items with their refs swapped; everything else (added or removed meanwhile) as it is. */
export function swapRefs<T extends { ref?: ComposeAttachmentRef | undefined }>(
  items: readonly T[],
  swaps: readonly RefSwap[],
): T[] {
  const to = new Map(swaps.map((s) => [refKey(s.from), s.to]));
  return items.map((item) => {
    const next = item.ref ? to.get(refKey(item.ref)) : undefined;
    return next ? { ...item, ref: next } : item;
  });
}
