import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { parseContentType } from "../mailbox/mime.ts";
import type { MailServices } from "../mailbox/services.ts";
import { checkGmailCall } from "./check.ts";
import { GMAIL_ERRORS, GOOGLE_ERROR_CONTENT_TYPE, sendGoogleError } from "./errors.ts";
import { getMessage, MESSAGES_GET_CALL } from "./messages.ts";

/** Google's batch endpoint takes at most 100 calls. */
export const MAX_BATCH_CALLS = 100;

export interface InnerRequest {
  contentId: string | undefined;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

function splitParts(body: string, boundary: string): string[] {
  const parts: string[] = [];
  const delimiter = `--${boundary}`;
  for (const chunk of body.split(delimiter).slice(1)) {
    if (chunk.startsWith("--")) break;
    parts.push(chunk.replace(/^\r?\n/, "").replace(/\r?\n$/, ""));
  }
  return parts;
}

function splitHead(text: string): { head: string[]; rest: string } {
  const match = /\r?\n\r?\n/.exec(text);
  const head = match === null ? text : text.slice(0, match.index);
  const rest = match === null ? "" : text.slice(match.index + match[0].length);
  return { head: head.split(/\r?\n/).filter((line) => line !== ""), rest };
}

function headerMap(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}

/** Parses a multipart/mixed batch body into the HTTP requests it carries. */
export function parseBatch(body: string, boundary: string): InnerRequest[] | string {
  const requests: InnerRequest[] = [];
  for (const part of splitParts(body, boundary)) {
    const outer = splitHead(part);
    const partHeaders = headerMap(outer.head);
    if (!(partHeaders["content-type"] ?? "").toLowerCase().startsWith("application/http")) {
      return "Each batch part must have Content-Type: application/http";
    }
    const inner = splitHead(outer.rest);
    const [requestLine = "", ...headerLines] = inner.head;
    const match = /^([A-Z]+)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?$/.exec(requestLine.trim());
    if (match === null) return `Invalid request line in batch part: ${requestLine}`;
    const target = (match[2] ?? "").replace(/^https?:\/\/[^/]+/, "");
    requests.push({
      contentId: partHeaders["content-id"]?.replace(/^<|>$/g, ""),
      method: match[1] ?? "GET",
      path: target,
      headers: headerMap(headerLines),
      body: inner.rest.trim(),
    });
  }
  return requests;
}

const REASONS: Record<number, string> = {
  200: "OK",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

interface InnerResponse {
  statusCode: number;
  contentType: string | undefined;
  wwwAuthenticate: string | undefined;
  body: string;
}

/** Replays an inner call against this same server: every route, hook and check applies. */
async function replay(
  app: FastifyInstance,
  mail: MailServices,
  inner: InnerRequest,
  authorization: string | undefined,
): Promise<InnerResponse> {
  const headers: Record<string, string> = { ...inner.headers, "x-emulator-inner": mail.innerRequestSecret };
  if (authorization !== undefined) headers.authorization = authorization;
  const response = await app.inject({
    method: inner.method as "GET",
    url: `/gmail.googleapis.com${inner.path.startsWith("/") ? "" : "/"}${inner.path}`,
    headers,
    ...(inner.body === "" ? {} : { payload: inner.body }),
  });
  const contentType = response.headers["content-type"];
  const wwwAuthenticate = response.headers["www-authenticate"];
  return {
    statusCode: response.statusCode,
    contentType: typeof contentType === "string" ? contentType : undefined,
    wwwAuthenticate: typeof wwwAuthenticate === "string" ? wwwAuthenticate : undefined,
    body: response.body,
  };
}

const MESSAGE_GET = /^\/?gmail\/v1\/users\/([^/?#]+)\/messages\/([^/?#]+)(?:\?([^#]*))?$/;

/** A query string as Fastify parses it: repeated keys become arrays. */
function queryOf(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/**
 * messages.get, the call a sync sends thousands of, answered without a replay: the same checks
 * (checkGmailCall) and the same method (getMessage) as the route, minus Fastify's per-request
 * machinery, which cost the emulator more than rendering the message. Anything else, or a path
 * that does not decode, goes through replay.
 */
function directMessageGet(
  mail: MailServices,
  inner: InnerRequest,
  authorization: string | undefined,
): InnerResponse | undefined {
  const match = inner.method === "GET" ? MESSAGE_GET.exec(inner.path) : null;
  if (match === null) return undefined;
  let userId: string;
  let id: string;
  try {
    userId = decodeURIComponent(match[1] ?? "");
    id = decodeURIComponent(match[2] ?? "");
  } catch {
    return undefined;
  }
  const query = queryOf(match[3] ?? "");
  const check = checkGmailCall(mail, {
    authorization,
    userId,
    q: query.q,
    ...MESSAGES_GET_CALL,
  });
  const answer = check.ok ? getMessage(check.caller.mailbox, id, query) : check.error;
  const failed = "error" in answer;
  return {
    statusCode: failed ? answer.error.code : 200,
    contentType: failed ? GOOGLE_ERROR_CONTENT_TYPE : "application/json; charset=utf-8",
    wwwAuthenticate: check.ok ? undefined : check.wwwAuthenticate,
    body: JSON.stringify(answer),
  };
}

/**
 * `POST /batch/gmail/v1`: each part is replayed against this same server, so every inner call
 * is authenticated, charged to the quota and may fail (429) on its own inside a 200 batch.
 */
export function registerGmailBatch(app: FastifyInstance, mail: MailServices): void {
  app.addContentTypeParser(
    "multipart/mixed",
    { parseAs: "string", bodyLimit: 10 * 1024 * 1024 },
    (_r, body, done) => {
      done(null, body);
    },
  );

  app.post("/batch/gmail/v1", async (request, reply) => {
    const { params } = parseContentType(request.headers["content-type"]);
    const boundary = params.boundary;
    if (boundary === undefined || typeof request.body !== "string") {
      return sendGoogleError(
        reply,
        GMAIL_ERRORS.badRequest("Batch requests must be multipart/mixed with a boundary"),
      );
    }
    const parsed = parseBatch(request.body, boundary);
    if (typeof parsed === "string") return sendGoogleError(reply, GMAIL_ERRORS.badRequest(parsed));
    if (parsed.length === 0) return sendGoogleError(reply, GMAIL_ERRORS.badRequest("Empty batch request"));
    if (parsed.length > MAX_BATCH_CALLS) {
      return sendGoogleError(
        reply,
        GMAIL_ERRORS.badRequest(`Too many requests in batch; the limit is ${MAX_BATCH_CALLS}`),
      );
    }
    const outerFault = await mail.faults.apply("google", request, reply);
    if (outerFault === "drop") return reply;
    if (outerFault === "error") return sendGoogleError(reply, GMAIL_ERRORS.backendError());

    const responseBoundary = `batch_${randomBytes(12).toString("base64url")}`;
    const chunks: string[] = [];
    let index = 0;
    for (const inner of parsed) {
      index += 1;
      const authorization = inner.headers.authorization ?? request.headers.authorization;
      const response =
        directMessageGet(mail, inner, authorization) ?? (await replay(app, mail, inner, authorization));
      const contentId = inner.contentId === undefined ? `response-${index}` : `response-${inner.contentId}`;
      const innerHead = [`HTTP/1.1 ${response.statusCode} ${REASONS[response.statusCode] ?? ""}`.trim()];
      if (response.contentType !== undefined) innerHead.push(`Content-Type: ${response.contentType}`);
      if (response.wwwAuthenticate !== undefined)
        innerHead.push(`WWW-Authenticate: ${response.wwwAuthenticate}`);
      chunks.push(
        `--${responseBoundary}\r\nContent-Type: application/http\r\nContent-ID: <${contentId}>\r\n\r\n${innerHead.join("\r\n")}\r\n\r\n${response.body}\r\n`,
      );
    }
    chunks.push(`--${responseBoundary}--\r\n`);
    return reply
      .code(200)
      .header("content-type", `multipart/mixed; boundary=${responseBoundary}`)
      .send(chunks.join(""));
  });
}
