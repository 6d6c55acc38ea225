/**
 * What compressing a list answer costs and saves, per level (issue 39 "Compression", decision
 * 0078). Builds first pages of 50 rows in GET /api/emails's shape from the SpamAssassin corpus
 * (real senders, subjects and snippets), then times JSON.stringify and each encoder on them.
 *   npx tsx bench/mail/compression-levels.ts
 * Prints one line per encoder: bytes, ratio, microseconds per page, and what a 1 Gbit/s or a
 * 20 Mbit/s link takes to carry the page, to set against the CPU time.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import PostalMime from "postal-mime";
import { corpusIndex, readRaw } from "../ai/corpus.ts";

const PAGES = 20;
const ROWS = 50;

async function rows(): Promise<object[]> {
  const { dir, messages } = corpusIndex();
  const out: object[] = [];
  const accountId = randomUUID();
  for (let i = 0; out.length < PAGES * ROWS && i < messages.length; i += 3) {
    const message = messages[i];
    if (!message) continue;
    const email = await PostalMime.parse(readRaw(dir, message));
    const text = (email.text ?? "").replace(/\s+/g, " ").trim();
    out.push({
      id: randomUUID(),
      accountId,
      accountEmail: "alex@gmail.com",
      provider: "gmail",
      threadId: randomUUID().slice(0, 16),
      conversationId: randomUUID(),
      fromName: email.from?.name ?? "",
      fromAddress: email.from?.address ?? "",
      toRecipients: (email.to ?? [])
        .slice(0, 3)
        .map((a) => ({ name: a.name ?? "", address: a.address ?? "" })),
      ccRecipients: [],
      subject: email.subject ?? "",
      snippet: text.slice(0, 200),
      receivedAt: new Date(Date.now() - out.length * 60_000).toISOString(),
      isRead: out.length % 3 === 0,
      isStarred: false,
      isFlagged: false,
      isArchived: false,
      bucket: ["personal", "newsletters", "notifications", "other"][out.length % 4],
      hasUnsubscribe: out.length % 2 === 0,
      aiAnalysis: { summary: text.slice(200, 320), priority: "normal", needsReply: false },
      hasAttachments: false,
      resurfacedAt: null,
      resurfaceReason: null,
    });
  }
  return out;
}

function time(label: string, pages: string[], encode: (s: string) => Buffer | string): void {
  for (const p of pages) encode(p); // warm-up
  const rounds = 10;
  let bytes = 0;
  // CPU time, not wall time: on a shared machine the wall clock mostly measures the neighbours.
  const started = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const p of pages) bytes += Buffer.byteLength(encode(p));
  const used = process.cpuUsage(started);
  const us = (used.user + used.system) / (rounds * pages.length);
  const size = bytes / (rounds * pages.length);
  const plain = pages.reduce((s, p) => s + Buffer.byteLength(p), 0) / pages.length;
  const wire = (bitsPerSecond: number) => ((size * 8) / bitsPerSecond) * 1e6;
  console.log(
    `${label.padEnd(18)} ${Math.round(size).toString().padStart(7)} B  ratio ${(plain / size).toFixed(2).padStart(5)}  ` +
      `${us.toFixed(0).padStart(6)} us CPU/page  wire 1Gb/s ${wire(1e9).toFixed(0)} us, 20Mb/s ${wire(20e6).toFixed(0)} us`,
  );
}

async function main(): Promise<void> {
  const all = await rows();
  const pages: string[] = [];
  for (let p = 0; p < PAGES; p++)
    pages.push(JSON.stringify({ emails: all.slice(p * ROWS, (p + 1) * ROWS), nextCursor: "x".repeat(40) }));
  const objects = pages.map((p) => JSON.parse(p) as unknown);
  console.log(
    `${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}, ${PAGES} pages of ${ROWS} rows`,
  );
  let i = 0;
  time("JSON.stringify", pages, () => JSON.stringify(objects[i++ % objects.length]));
  time("identity", pages, (s) => s);
  for (const level of [1, 3, 6, 9]) time(`gzip ${level}`, pages, (s) => gzipSync(s, { level }));
  for (const quality of [1, 4, 6]) {
    time(`brotli ${quality}`, pages, (s) =>
      brotliCompressSync(s, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }),
    );
  }
}

void main();
