/**
 * The mail's own images (cid: parts), by Content-ID as a cid: URL names it (RFC 2392: without the
 * angle brackets; compared in lower case, as mail clients do), each at the absolute address of
 * its attachment route.
 */
export type InlineImages = ReadonlyMap<string, string>;

/** The key a Content-ID header value or a cid: URL's id is looked up by. */
export function contentIdKey(contentId: string): string {
  let id = contentId.trim();
  if (id.startsWith("<") && id.endsWith(">")) id = id.slice(1, -1);
  return id.trim().toLowerCase();
}

/** A cid: reference's attachment address, when the mail carries that part. */
export function cidTarget(value: string, images: InlineImages): string | undefined {
  const trimmed = value.trim();
  if (!/^cid:/i.test(trimmed)) return undefined;
  let id = trimmed.slice(4);
  try {
    id = decodeURIComponent(id);
  } catch {
    // a stray % stays as written
  }
  return images.get(contentIdKey(id));
}
