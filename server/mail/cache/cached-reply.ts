import type { FastifyReply, FastifyRequest } from "fastify";
import { type Encoding, etagOf, type ReadCache } from "./read-cache.ts";

/**
 * Below this an answer goes plain: it fits in one or two TCP segments anyway (an empty list, a
 * short search); the same threshold as @fastify/compress's (server/app.ts).
 */
export const COMPRESS_MIN_BYTES = 1024;

/** The encoding to send: brotli when the client takes it (browsers do), else gzip, else none. */
export function chosenEncoding(request: FastifyRequest): Encoding | undefined {
  const header = request.headers["accept-encoding"];
  if (typeof header !== "string") return undefined;
  const taken = new Set<string>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    // q=0 refuses the encoding (RFC 9110 12.5.3).
    if (!params.some((p) => /^\s*q=0(\.0{0,3})?\s*$/.test(p))) taken.add(name.trim().toLowerCase());
  }
  if (taken.has("br")) return "br";
  if (taken.has("gzip")) return "gzip";
  return undefined;
}

/** Does If-None-Match name this ETag (or `*`)? Weak and strong forms compare equal (RFC 9110 13.1.2). */
export function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (typeof header !== "string") return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/**
 * Answers a GET that is not kept (its value moves without an event, as the stats' provider totals
 * do) with an ETag all the same: a polling client that already holds it gets an empty 304.
 */
export function sendWithEtag(request: FastifyRequest, reply: FastifyReply, value: unknown): FastifyReply {
  const body = Buffer.from(JSON.stringify(value));
  const etag = etagOf(body);
  reply.header("etag", etag);
  if (matchesEtag(request.headers["if-none-match"], etag)) return reply.code(304).send();
  // Left to @fastify/compress (small answers stay plain under its threshold).
  return reply.type("application/json; charset=utf-8").send(body);
}

/**
 * Answers a GET from the person's read cache: 304 when the client holds this ETag, else the kept
 * JSON, compressed once (brotli or gzip, as the client takes) and kept so when it is big enough. The route's
 * `cache-control: no-store` stays: the ETag serves the web client's in-memory copy, not the
 * browser's HTTP cache.
 */
export async function sendCached(
  cache: ReadCache,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  load: () => Promise<unknown>,
  /** The one email the answer shows (an opened email): changes to other emails keep it. */
  emailId?: string,
): Promise<FastifyReply> {
  const key = request.url;
  const answer = await cache.get(userId, key, load, emailId);
  reply.header("etag", answer.etag);
  reply.header("vary", "accept-encoding");
  if (matchesEtag(request.headers["if-none-match"], answer.etag)) return reply.code(304).send();
  reply.type("application/json; charset=utf-8");
  const encoding = answer.body.length >= COMPRESS_MIN_BYTES ? chosenEncoding(request) : undefined;
  if (encoding) {
    // A set content-encoding tells @fastify/compress the payload is already compressed.
    reply.header("content-encoding", encoding);
    return reply.send(cache.encoded(userId, key, answer, encoding));
  }
  return reply.send(answer.body);
}
