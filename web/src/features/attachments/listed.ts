import type { Attachment } from "../../../../contract/attachments.ts";
import { contentIdKey } from "../mail-html/cid.ts";

/** cid: references in an HTML body, by key (contentIdKey). */
function referencedContentIds(bodyHtml: string | null): Set<string> {
  const ids = new Set<string>();
  if (!bodyHtml) return ids;
  // Bounded: one linear pass over the body, each match at most 998 characters (a header line).
  for (const match of bodyHtml.matchAll(/cid:([^"'\s)>]{1,998})/gi)) {
    let id = match[1] ?? "";
    try {
      id = decodeURIComponent(id);
    } catch {
      // as written
    }
    ids.add(contentIdKey(id));
  }
  return ids;
}

/**
 * The attachments a person sees listed: every one that is not an image the body shows in place.
 * An inline part the body never names (some senders mark every image inline) is listed too, so
 * nothing the mail carries is out of reach.
 */
export function listedAttachments(attachments: readonly Attachment[], bodyHtml: string | null): Attachment[] {
  const shown = referencedContentIds(bodyHtml);
  return attachments.filter((a) => !a.inline || !a.contentId || !shown.has(contentIdKey(a.contentId)));
}
