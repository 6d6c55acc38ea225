import { contentIdKey, type InlineImages } from "./cid.ts";

/** What the body needs of an attachment to show it in place of a cid: reference. */
export interface InlinePart {
  contentId: string | null;
  inlineUrl: string | null;
}

/**
 * The mail's cid: images by Content-ID, at absolute addresses (the frame is a srcdoc with an opaque
 * origin, so a path alone would not resolve), and the CSP sources that let exactly those load:
 * the folders their addresses sit in, or none when the mail has no such image.
 */
export function inlineImagesOf(
  parts: readonly InlinePart[],
  origin: string,
): { images: InlineImages; source: string | undefined } {
  const images = new Map<string, string>();
  const folders = new Set<string>();
  for (const part of parts) {
    if (!part.contentId || !part.inlineUrl) continue;
    let url: URL;
    try {
      url = new URL(part.inlineUrl, origin);
    } catch {
      continue;
    }
    // Only the app's own route: an attachment address is never another site.
    if (url.origin !== origin) continue;
    const key = contentIdKey(part.contentId);
    if (key === "" || images.has(key)) continue;
    images.set(key, url.href);
    folders.add(`${url.origin}${url.pathname.slice(0, url.pathname.lastIndexOf("/") + 1)}`);
  }
  return { images, source: folders.size > 0 ? [...folders].join(" ") : undefined };
}
