import { previewOf } from "./present.ts";

const MAX_NAME_CHARS = 200;

/**
 * A file name safe to hand a browser's save dialog: no path separators, control characters or
 * bidirectional controls (U+202E shows `invoice‮fdp.exe` as `invoiceexe.pdf`), no leading dots,
 * at most 200 characters keeping the extension; "attachment" when nothing is left.
 */
export function safeFilename(filename: string): string {
  const cleaned = filename
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "")
    .replace(/[/\\:*?"<>|]/g, "_")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  const chars = [...cleaned];
  if (chars.length === 0) return "attachment";
  if (chars.length <= MAX_NAME_CHARS) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const ext = dot > 0 && cleaned.length - dot <= 16 ? cleaned.slice(dot) : "";
  return (
    [...cleaned.slice(0, cleaned.length - ext.length)].slice(0, MAX_NAME_CHARS - ext.length).join("") + ext
  );
}

/** RFC 5987 attr-chars stay; every other UTF-8 byte is percent-encoded. */
function extValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Content-Disposition per RFC 6266: an ASCII fallback (`filename="..."`, non-ASCII as `_`) for
 * old clients and `filename*=UTF-8''...` (RFC 5987) with the real name for every current one.
 */
export function contentDisposition(type: "attachment" | "inline", filename: string): string {
  const name = safeFilename(filename);
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\%]/g, "_");
  return `${type}; filename="${ascii}"; filename*=UTF-8''${extValue(name)}`;
}

const TOKEN_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,127}$/;
/** Types a browser could run or render as a document of our origin if it ever displayed them. */
const ACTIVE_TYPE = /html|xml|svg|javascript|ecmascript|x-shockwave|xhtml|multipart|text\/(css|vtt)/;

/**
 * The Content-Type served: the declared type when it is a plain, passive one, else
 * application/octet-stream. Inline is granted only to previewable types (images, PDF).
 */
export function servedType(mimeType: string, mode: "download" | "inline"): { type: string; inline: boolean } {
  const lower = mimeType.toLowerCase().trim();
  if (mode === "inline" && previewOf(lower) !== null) return { type: lower, inline: true };
  const safe = TOKEN_TYPE.test(lower) && !ACTIVE_TYPE.test(lower);
  return { type: safe ? lower : "application/octet-stream", inline: false };
}

/** The headers of every attachment answer, whatever it holds (decision 0060). */
export function attachmentHeaders(
  filename: string,
  mimeType: string,
  mode: "download" | "inline",
): Record<string, string> {
  const served = servedType(mimeType, mode);
  return {
    "content-type": served.type,
    "content-disposition": contentDisposition(served.inline ? "inline" : "attachment", filename),
    "x-content-type-options": "nosniff",
    // Nothing served here may run script or reach the app's origin, even if a browser rendered it.
    "content-security-policy": "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
    // cid: images load inside the mail frame, whose origin is opaque: same-origin would refuse them.
    "cross-origin-resource-policy": served.inline ? "cross-origin" : "same-origin",
    "cache-control": "private, no-store",
  };
}
