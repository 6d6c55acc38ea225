import { decodeWords, type HeaderField, headerValue, parseHeaderBlock, splitHeaderBlock } from "./headers.ts";

/**
 * A MIME tree parsed from a message. Everything works on a "binary string" (one char per byte,
 * latin1), so byte counts match what the providers report and charsets are decoded only when a
 * text part is read.
 */
export interface MimePart {
  /** Gmail's numbering: "" for the root, "0", "1", then "1.0" for nested parts. */
  readonly partId: string;
  readonly headers: readonly HeaderField[];
  readonly mimeType: string;
  readonly params: Readonly<Record<string, string>>;
  readonly filename: string;
  readonly transferEncoding: string;
  /** Still transfer-encoded; empty for multiparts. */
  readonly rawBody: string;
  readonly parts: readonly MimePart[];
}

/** The raw message as a binary string, which every parser here expects. */
export function toBinary(raw: string): string {
  return Buffer.from(raw, "utf8").toString("latin1");
}

/** `type/subtype; a=b; c="d"` -> type and lower-cased parameter names (RFC 2231 `*` forms folded). */
export function parseContentType(value: string | undefined): {
  type: string;
  params: Record<string, string>;
} {
  const [typePart = "", ...rest] = splitParams(value ?? "");
  const params: Record<string, string> = {};
  for (const item of rest) {
    const eq = item.indexOf("=");
    if (eq <= 0) continue;
    let key = item.slice(0, eq).trim().toLowerCase();
    let val = item
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/s, "$1");
    if (key.endsWith("*")) {
      key = key.replace(/\*\d*\*?$/, "");
      const extended = /^([^']*)'[^']*'(.*)$/.exec(val);
      if (extended !== null) {
        try {
          val = decodeURIComponent(extended[2] ?? "");
        } catch {
          val = extended[2] ?? "";
        }
      }
      params[key] = (params[key] ?? "") + val;
    } else {
      key = key.replace(/\*\d+$/, "");
      params[key] = key in params && /\*\d+$/.test(item) ? (params[key] ?? "") + val : val;
    }
  }
  return { type: typePart.trim().toLowerCase() || "text/plain", params };
}

function splitParams(value: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    if (char === ";" && !quoted) {
      out.push(current);
      current = "";
    } else current += char;
  }
  out.push(current);
  return out;
}

function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const parts: string[] = [];
  const lines = body.split(/\r?\n/);
  let current: string[] | undefined;
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (trimmed === `${delimiter}--`) {
      if (current !== undefined) parts.push(current.join("\r\n"));
      return parts;
    }
    if (trimmed === delimiter) {
      if (current !== undefined) parts.push(current.join("\r\n"));
      current = [];
      continue;
    }
    current?.push(line);
  }
  // A missing closing delimiter still yields the last part, as lenient readers do.
  if (current !== undefined) parts.push(current.join("\r\n"));
  return parts;
}

const MAX_DEPTH = 12;

/** Parses a message given as a binary string (see toBinary). */
export function parseMime(binary: string, partId = "", depth = 0): MimePart {
  const { head, body } = splitHeaderBlock(binary);
  const headers = parseHeaderBlock(head);
  const { type, params } = parseContentType(headerValue(headers, "content-type"));
  const disposition = parseContentType(headerValue(headers, "content-disposition"));
  const filename = decodeWords(disposition.params.filename ?? params.name ?? "");
  const transferEncoding = (headerValue(headers, "content-transfer-encoding") ?? "7bit").trim().toLowerCase();
  const boundary = params.boundary;
  if (type.startsWith("multipart/") && boundary !== undefined && depth < MAX_DEPTH) {
    const children = splitMultipart(body, boundary).map((child, index) =>
      parseMime(child, partId === "" ? String(index) : `${partId}.${index}`, depth + 1),
    );
    return {
      partId,
      headers,
      mimeType: type,
      params,
      filename,
      transferEncoding,
      rawBody: "",
      parts: children,
    };
  }
  return { partId, headers, mimeType: type, params, filename, transferEncoding, rawBody: body, parts: [] };
}

function decodeQuotedPrintable(text: string): Buffer {
  const unfolded = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < unfolded.length; i += 1) {
    const char = unfolded.charCodeAt(i);
    if (char === 0x3d && /^[0-9A-Fa-f]{2}$/.test(unfolded.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(unfolded.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(char & 0xff);
  }
  return Buffer.from(bytes);
}

/** The part's content bytes with the transfer encoding undone. */
export function decodedBytes(part: MimePart): Buffer {
  if (part.transferEncoding === "base64")
    return Buffer.from(part.rawBody.replace(/[^A-Za-z0-9+/=]/g, ""), "base64");
  if (part.transferEncoding === "quoted-printable") return decodeQuotedPrintable(part.rawBody);
  return Buffer.from(part.rawBody, "latin1");
}

/** Text content decoded from its charset; bytes that are valid UTF-8 win over a wrong label. */
export function decodedText(part: MimePart): string {
  const bytes = decodedBytes(part);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const charset = part.params.charset ?? "latin1";
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      return new TextDecoder("latin1").decode(bytes);
    }
  }
}

export function isAttachment(part: MimePart): boolean {
  const disposition = headerValue(part.headers, "content-disposition") ?? "";
  return part.filename !== "" || /^\s*attachment/i.test(disposition);
}

/** Every leaf part in document order. */
export function leafParts(root: MimePart): MimePart[] {
  if (root.parts.length === 0) return [root];
  return root.parts.flatMap(leafParts);
}

export function findPart(root: MimePart, partId: string): MimePart | undefined {
  if (root.partId === partId) return root;
  for (const child of root.parts) {
    const found = findPart(child, partId);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first non-attachment text/plain and text/html bodies. */
export function bodies(root: MimePart): { text: string | undefined; html: string | undefined } {
  let text: string | undefined;
  let html: string | undefined;
  for (const part of leafParts(root)) {
    if (isAttachment(part)) continue;
    if (text === undefined && part.mimeType === "text/plain") text = decodedText(part);
    if (html === undefined && part.mimeType === "text/html") html = decodedText(part);
  }
  return { text, html };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', nbsp: " ", "#39": "'" };

export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<br\s*\/?>|<\/p>|<\/div>/gi, "\n")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(#?\w+);/g, (all, name: string) => ENTITIES[name.toLowerCase()] ?? all);
}

/** Gmail's snippet: about 200 characters of body text, whitespace collapsed, HTML-escaped. */
export function snippetOf(text: string): string {
  const collapsed = text.replace(/\s+/g, " ").trim().slice(0, 200);
  return collapsed.replace(
    /[&<>"']/g,
    (char) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#39" }[char]};`,
  );
}

/** Plain text of a message for snippets, previews and word search. */
export function plainTextOf(root: MimePart): string {
  const { text, html } = bodies(root);
  return text ?? (html === undefined ? "" : htmlToText(html));
}
