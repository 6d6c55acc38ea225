import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { LRUCache } from "lru-cache";

/** The encodings a kept answer is sent in besides plain JSON. */
export type Encoding = "br" | "gzip";

/** One serialized answer: the JSON bytes, their ETag, and each encoding once a client asked for it. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

export interface ReadCacheOptions {
  /** All entries together, in bytes (JSON + gzip + key). */
  maxBytes?: number;
  /** One person's entries together, so one busy person cannot push everyone else out. */
  maxUserBytes?: number;
  /**
   * A safety net, not the freshness rule: writes and sync events drop entries at once. It bounds
   * what a change nobody announced (a path without an event) can leave stale.
   */
  ttlMs?: number;
}

/**
 * Levels by measurement (bench/mail/compression-levels.ts, decision 0078): on a 52 KB list page
 * brotli 1 costs about a third of gzip 1's CPU for the same ratio (3.7), and higher levels gain
 * under 10% for 2-3x the CPU. What counts is the CPU per request; links are rarely the limit.
 */
export const COMPRESSION = { brotliQuality: 1, gzipLevel: 1 } as const;

function encode(body: Buffer, encoding: Encoding): Buffer {
  return encoding === "br"
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality } })
    : gzipSync(body, { level: COMPRESSION.gzipLevel });
}

export const READ_CACHE_DEFAULTS = {
  maxBytes: 32 * 1024 * 1024,
  maxUserBytes: 4 * 1024 * 1024,
  ttlMs: 15_000,
} as const;

/** Entries and loads are keyed `<userId> <request key>`: a user id never contains a space. */
const keyOf = (userId: string, key: string) => `${userId} ${key}`;
const userOf = (cacheKey: string) => cacheKey.slice(0, cacheKey.indexOf(" "));

interface Load {
  promise: Promise<CachedAnswer>;
  /** Set when the person's mail changed while the load ran: it answers its waiters, never the cache. */
  stale: boolean;
  /** The one email the answer shows, when it shows one (an opened email). */
  emailId: string | undefined;
}

/**
 * What changed: everything of the person's (undefined), or these emails only. An answer of one
 * email (an opened email: its row and its account, nothing else) survives a change to other
 * emails; lists, searches and counts may hold any email, so any change drops them.
 */
export type ChangedEmails = readonly string[] | undefined;

function sparedBy(changed: ChangedEmails): (emailId: string | undefined) => boolean {
  if (changed === undefined) return () => false;
  const ids = new Set(changed);
  return (emailId) => emailId !== undefined && !ids.has(emailId);
}

/**
 * Per-user cache of hot read answers (issue 39): the serialized JSON of list pages, stats and
 * opened emails, with their ETag and gzip bytes, bounded in bytes overall and per person.
 * Concurrent misses of one key share one load (single flight). A change to a person's mail
 * drops that person's entries it may touch and marks those loads under way stale, so an answer
 * read before a write is never kept after it.
 */
export function createReadCache(options: ReadCacheOptions = {}) {
  const maxBytes = options.maxBytes ?? READ_CACHE_DEFAULTS.maxBytes;
  const maxUserBytes = options.maxUserBytes ?? READ_CACHE_DEFAULTS.maxUserBytes;
  /** Keys of each person's entries, oldest first, and their bytes: bounded by the entries themselves. */
  const owned = new Map<string, { keys: Set<string>; bytes: number; emailOf: Map<string, string> }>();
  const sizeOf = (key: string, answer: CachedAnswer) =>
    key.length +
    answer.body.length +
    (answer.br?.length ?? 0) +
    (answer.gzip?.length ?? 0) +
    answer.etag.length +
    64;

  const entries = new LRUCache<string, CachedAnswer>({
    maxSize: maxBytes,
    sizeCalculation: (answer, key) => sizeOf(key, answer),
    ttl: options.ttlMs ?? READ_CACHE_DEFAULTS.ttlMs,
    // Expired entries are dropped when met, so their bytes leave the per-user count too.
    dispose: (answer, key) => {
      const mine = owned.get(userOf(key));
      if (!mine?.keys.delete(key)) return;
      mine.emailOf.delete(key);
      mine.bytes -= sizeOf(key, answer);
      if (mine.keys.size === 0) owned.delete(userOf(key));
    },
  });
  const loads = new Map<string, Load>();
  let hits = 0;
  let misses = 0;

  function store(userId: string, cacheKey: string, answer: CachedAnswer, emailId: string | undefined): void {
    const size = sizeOf(cacheKey, answer);
    if (size > maxUserBytes) return;
    entries.set(cacheKey, answer);
    if (!entries.has(cacheKey)) return;
    let mine = owned.get(userId);
    if (!mine) {
      mine = { keys: new Set(), bytes: 0, emailOf: new Map() };
      owned.set(userId, mine);
    }
    mine.keys.add(cacheKey);
    if (emailId !== undefined) mine.emailOf.set(cacheKey, emailId);
    mine.bytes += size;
    // Over the person's share: their oldest entries go first.
    for (const oldest of mine.keys) {
      if (mine.bytes <= maxUserBytes) break;
      entries.delete(oldest);
    }
  }

  return {
    /**
     * The answer for `key` of `userId`: kept, joined to a load under way, or loaded now by `load`
     * (whose result must be JSON-serializable). A load that fails is not kept. `emailId` names
     * the one email the answer shows, if it shows only one: changes to other emails keep it.
     */
    async get(
      userId: string,
      key: string,
      load: () => Promise<unknown>,
      emailId?: string,
    ): Promise<CachedAnswer> {
      const cacheKey = keyOf(userId, key);
      const kept = entries.get(cacheKey);
      if (kept) {
        hits += 1;
        return kept;
      }
      const running = loads.get(cacheKey);
      if (running) {
        hits += 1;
        return running.promise;
      }
      misses += 1;
      const entry: Load = {
        stale: false,
        emailId,
        promise: Promise.resolve() as unknown as Promise<CachedAnswer>,
      };
      entry.promise = (async () => {
        try {
          const body = Buffer.from(JSON.stringify(await load()));
          const answer: CachedAnswer = { body, etag: etagOf(body) };
          if (!entry.stale) store(userId, cacheKey, answer, emailId);
          return answer;
        } finally {
          if (loads.get(cacheKey) === entry) loads.delete(cacheKey);
        }
      })();
      loads.set(cacheKey, entry);
      return entry.promise;
    },

    /** A kept answer's bytes in `encoding`, compressed once and kept with it while it lives. */
    encoded(userId: string, key: string, answer: CachedAnswer, encoding: Encoding): Buffer {
      const done = answer[encoding];
      if (done) return done;
      const bytes = encode(answer.body, encoding);
      answer[encoding] = bytes;
      const cacheKey = keyOf(userId, key);
      // Set again so the byte count includes the new bytes (only if it is still this entry).
      if (entries.peek(cacheKey) === answer) {
        const emailId = owned.get(userId)?.emailOf.get(cacheKey);
        entries.delete(cacheKey);
        store(userId, cacheKey, answer, emailId);
      }
      return bytes;
    },

    /**
     * The person's mail changed (all of it, or only `changed` emails): drop the answers it may
     * touch and keep no such load under way. Synchronous.
     */
    invalidateUser(userId: string, changed?: ChangedEmails): void {
      const spared = sparedBy(changed);
      const prefix = `${userId} `;
      for (const [cacheKey, entry] of loads) {
        if (!cacheKey.startsWith(prefix) || spared(entry.emailId)) continue;
        entry.stale = true;
        loads.delete(cacheKey);
      }
      const mine = owned.get(userId);
      if (!mine) return;
      for (const cacheKey of [...mine.keys]) {
        if (!spared(mine.emailOf.get(cacheKey))) entries.delete(cacheKey);
      }
    },

    /** Notices may have been lost (the LISTEN connection dropped): nothing kept can be trusted. */
    invalidateAll(): void {
      for (const entry of loads.values()) entry.stale = true;
      loads.clear();
      entries.clear();
      owned.clear();
    },

    stats() {
      return { hits, misses, entries: entries.size, bytes: entries.calculatedSize, users: owned.size };
    },
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;

/** A strong ETag from the bytes, so two web processes give the same answer the same tag. */
export function etagOf(body: Buffer): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}
