import { randomBytes } from "node:crypto";

/** One call inside a Gmail batch request. */
export interface BatchCall {
  /** Our key for the answer (sent as Content-ID). */
  id: string;
  method: "GET" | "POST";
  /** Path from the API root, e.g. `/gmail/v1/users/me/messages/{id}?format=full`. */
  path: string;
  body?: unknown;
}

export interface BatchAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Google's batch format is multipart/mixed: each part is `Content-Type: application/http`
 * wrapping one HTTP request; the answer mirrors it with one HTTP response per part, matched
 * by Content-ID (`<response-{our id}>`), not by order. It is small enough to write by hand:
 * the npm batch helpers are either abandoned or pull in googleapis' whole client.
 */
export function encodeBatch(calls: readonly BatchCall[]): { boundary: string; body: string } {
  const boundary = `batch_mailwise_${randomBytes(12).toString("hex")}`;
  const parts = calls.map((call) => {
    const lines = [
      `--${boundary}`,
      "Content-Type: application/http",
      `Content-ID: <${call.id}>`,
      "",
      `${call.method} ${call.path}`,
    ];
    if (call.body !== undefined) {
      const json = JSON.stringify(call.body);
      lines.push(
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(json, "utf8")}`,
        "",
        json,
      );
    } else {
      lines.push("");
    }
    return lines.join("\r\n");
  });
  return { boundary, body: `${parts.join("\r\n")}\r\n--${boundary}--\r\n` };
}

function splitHead(text: string): { head: string[]; rest: string } {
  const match = /\r?\n\r?\n/.exec(text);
  if (match === null) return { head: text.split(/\r?\n/), rest: "" };
  return { head: text.slice(0, match.index).split(/\r?\n/), rest: text.slice(match.index + match[0].length) };
}

function headersOf(lines: readonly string[]): Headers {
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A malformed header name in one part must not sink the whole batch.
    }
  }
  return headers;
}

/** The boundary parameter of a multipart Content-Type. */
export function boundaryOf(contentType: string | null): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  return match?.[1] ?? match?.[2];
}

/**
 * Parses a batch answer into our call ids -> inner responses. Parts whose Content-ID we cannot
 * match are ignored; the caller treats calls without an answer as failed and retries them.
 */
export function decodeBatch(body: string, boundary: string): Map<string, BatchAnswer> {
  const answers = new Map<string, BatchAnswer>();
  // A delimiter only counts at the start of a line (RFC 2046), so JSON that merely contains
  // the boundary text cannot split a part.
  const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const delimiter = new RegExp(`\\r?\\n--${escaped}`);
  for (const chunk of `\r\n${body}`.split(delimiter).slice(1)) {
    if (chunk.startsWith("--")) break;
    const outer = splitHead(chunk.replace(/^\r?\n/, ""));
    const contentId = headersOf(outer.head).get("content-id") ?? "";
    const id = /^<?(?:response-)?(.*?)>?$/.exec(contentId.trim())?.[1];
    const inner = splitHead(outer.rest);
    const [statusLine = "", ...headerLines] = inner.head;
    const status = Number(/^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(statusLine.trim())?.[1]);
    if (id === undefined || id === "" || !Number.isInteger(status)) continue;
    answers.set(id, { status, headers: headersOf(headerLines), text: inner.rest.replace(/\r?\n$/, "") });
  }
  return answers;
}
