/**
 * How an attachment is named and sized on screen and on disk. A file name is whatever the sender
 * wrote: it is shown as text only, with the characters that could disguise it made visible.
 */

/**
 * Control characters (C0, DEL, C1), line and paragraph separators, and the bidirectional
 * embeddings, overrides, isolates and marks: a right-to-left override turns "invoice‮fdp.exe"
 * into what reads as "invoiceexe.pdf".
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const DISGUISING = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Longer names are shortened in the middle, so the start and the extension both stay visible. */
export const MAX_SHOWN_NAME = 80;

/** The file name as the reader shows it: disguising characters as U+FFFD, never empty. */
export function displayFileName(filename: string): string {
  const shown = filename.replace(DISGUISING, "\uFFFD").trim();
  return shown === "" ? "Unnamed attachment" : shown;
}

/** At most MAX_SHOWN_NAME characters (code points), cut in the middle with an ellipsis. */
export function shortFileName(shown: string): string {
  const chars = [...shown];
  if (chars.length <= MAX_SHOWN_NAME) return shown;
  const tail = 24;
  return `${chars.slice(0, MAX_SHOWN_NAME - tail - 1).join("")}…${chars.slice(-tail).join("")}`;
}

// Characters no common file system takes in a name, or that separate paths.
const UNSAFE_ON_DISK =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f/\\:*?"<>|\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const MAX_SAVED_NAME = 180;

/**
 * The name a download is saved under: no path separators, reserved or disguising characters,
 * no leading dots (hidden files), at most MAX_SAVED_NAME characters with the extension kept.
 */
export function saveFileName(filename: string): string {
  let name = filename
    .replace(UNSAFE_ON_DISK, "_")
    .trim()
    .replace(/^[.\s]+/, "");
  // Trailing dots and spaces cut by hand: an unanchored `[.\s]+$` retries at each one (quadratic).
  while (/[.\s]$/.test(name)) name = name.slice(0, -1);
  const chars = [...name];
  if (chars.length > MAX_SAVED_NAME) {
    const dot = name.lastIndexOf(".");
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : "";
    name = chars.slice(0, MAX_SAVED_NAME - [...ext].length).join("") + ext;
  }
  return name === "" ? "attachment" : name;
}

const UNITS = ["KB", "MB", "GB"] as const;

/** "412 KB", "2.4 MB", "18 MB", "900 bytes" (1 KB = 1024 bytes, as mail clients count). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "size unknown";
  if (bytes < 1024) return bytes === 1 ? "1 byte" : `${Math.round(bytes)} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  // KB always whole; MB and GB with one decimal below 10.
  const shown = unit > 0 && value < 10 ? value.toFixed(1).replace(/\.0$/, "") : String(Math.round(value));
  return `${shown} ${UNITS[unit]}`;
}

export type FileKind =
  | "pdf"
  | "image"
  | "document"
  | "spreadsheet"
  | "presentation"
  | "archive"
  | "calendar"
  | "message"
  | "audio"
  | "video"
  | "text"
  | "other";

const BY_EXTENSION: Record<string, FileKind> = {
  pdf: "pdf",
  png: "image",
  jpg: "image",
  jpeg: "image",
  gif: "image",
  webp: "image",
  bmp: "image",
  heic: "image",
  svg: "image",
  doc: "document",
  docx: "document",
  odt: "document",
  rtf: "document",
  pages: "document",
  xls: "spreadsheet",
  xlsx: "spreadsheet",
  ods: "spreadsheet",
  csv: "spreadsheet",
  numbers: "spreadsheet",
  ppt: "presentation",
  pptx: "presentation",
  odp: "presentation",
  key: "presentation",
  zip: "archive",
  gz: "archive",
  tgz: "archive",
  "7z": "archive",
  rar: "archive",
  tar: "archive",
  ics: "calendar",
  eml: "message",
  msg: "message",
  mp3: "audio",
  wav: "audio",
  m4a: "audio",
  ogg: "audio",
  mp4: "video",
  mov: "video",
  webm: "video",
  txt: "text",
  md: "text",
  log: "text",
};

/** What kind of file it is, for its icon: the MIME type first, then the extension. */
export function fileKind(mimeType: string, filename: string, isMessage = false): FileKind {
  if (isMessage) return "message";
  const mime = mimeType.toLowerCase().split(";")[0]?.trim() ?? "";
  if (mime === "application/pdf") return "pdf";
  if (mime === "message/rfc822") return "message";
  if (mime === "text/calendar" || mime === "application/ics") return "calendar";
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  const dot = filename.lastIndexOf(".");
  const ext = dot >= 0 ? filename.slice(dot + 1).toLowerCase() : "";
  const byExt = BY_EXTENSION[ext];
  if (byExt) return byExt;
  if (mime.startsWith("text/")) return "text";
  if (/zip|compressed|x-tar|gzip/.test(mime)) return "archive";
  if (/spreadsheet|excel/.test(mime)) return "spreadsheet";
  if (/presentation|powerpoint/.test(mime)) return "presentation";
  if (/wordprocessing|msword|opendocument\.text/.test(mime)) return "document";
  return "other";
}
