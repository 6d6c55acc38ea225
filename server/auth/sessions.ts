import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { SESSION_MESSAGES } from "../../contract/auth.ts";
import type { Db } from "../db/client.ts";
import { sessions } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { hashSecret, RANDOM_TOKEN_PATTERN, randomToken } from "./random.ts";

const DAY_MS = 86_400_000;
/** Sliding lifetime: a session lives this long after its last use. */
export const SESSION_TTL_MS = 30 * DAY_MS;
/** Renewal writes at most this often per session, so busy clients do not write on every call. */
const RENEW_EVERY_MS = 60_000;
/**
 * Ended and expired sessions are kept this long so their tokens still get "Session invalidated"
 * or "Session expired" (which the client turns into the right logout screen) instead of
 * "Invalid session token".
 */
const TOMBSTONE_MS = 30 * DAY_MS;

export interface SessionContext {
  sessionId: string;
  userId: string;
}

type SessionRow = typeof sessions.$inferSelect;

/** Sessions that ended: one (a logout), or all of a person's (their data deleted). */
export interface SessionsEnded {
  userId: string;
  sessionId?: string;
}

/**
 * Bearer sessions: random 256-bit tokens, only their SHA-256 stored.
 *
 * `cacheMs` keeps looked-up rows in memory that long, so most requests need no session query
 * (issue 39). Ending sessions evicts them here and calls `announce`, which tells the other
 * processes (PostgreSQL: NOTIFY, decision 0089) to `evict` them too; a process that may have
 * missed a notice calls `evictAll`. Expiry is still judged on every call against the clock.
 */
export function createSessionService(
  db: Db,
  clock: Clock,
  options: { cacheMs?: number; announce?: (ended: SessionsEnded) => void } = {},
) {
  const cacheMs = options.cacheMs ?? 0;
  const cache = new Map<string, { row: SessionRow; at: number }>();
  // Every request of a signed-in person runs this: prepared once, not built and planned each time.
  const byHash = db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare("session_by_token_hash");
  const evict = ({ userId, sessionId }: SessionsEnded) => {
    for (const [hash, entry] of cache)
      if (entry.row.userId === userId && (sessionId === undefined || entry.row.id === sessionId))
        cache.delete(hash);
  };
  const lookup = async (tokenHash: string): Promise<SessionRow | undefined> => {
    const hit = cache.get(tokenHash);
    if (hit && performance.now() - hit.at < cacheMs) return hit.row;
    const [row] = await byHash.execute({ tokenHash });
    if (cacheMs > 0 && row) {
      if (cache.size > 10_000) cache.clear();
      cache.set(tokenHash, { row, at: performance.now() });
    }
    return row;
  };
  return {
    /** Starts a session and returns the only copy of its token. */
    async create(userId: string): Promise<string> {
      const now = clock.now();
      await db
        .delete(sessions)
        .where(
          or(
            lt(sessions.endedAt, new Date(now.getTime() - TOMBSTONE_MS)),
            lt(sessions.expiresAt, new Date(now.getTime() - TOMBSTONE_MS)),
          ),
        );
      const token = randomToken();
      await db.insert(sessions).values({
        userId,
        tokenHash: hashSecret(token),
        createdAt: now,
        lastUsedAt: now,
        expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      });
      return token;
    },

    /** The session for a bearer token, renewed on use; throws the contract's 401 messages. */
    async authenticate(token: string | undefined): Promise<SessionContext> {
      if (token === undefined) throw new DomainError("unauthorized", SESSION_MESSAGES.missing);
      if (!RANDOM_TOKEN_PATTERN.test(token)) throw new DomainError("unauthorized", SESSION_MESSAGES.invalid);
      const row = await lookup(hashSecret(token));
      if (!row) throw new DomainError("unauthorized", SESSION_MESSAGES.invalid);
      const now = clock.nowMs();
      // endedAt may lie ahead: a session replaced by a link stays usable a few seconds (end()).
      if (row.endedAt && row.endedAt.getTime() <= now)
        throw new DomainError("session_expired", SESSION_MESSAGES.invalidated);
      if (row.expiresAt.getTime() <= now) throw new DomainError("session_expired", SESSION_MESSAGES.expired);
      if (now - row.lastUsedAt.getTime() >= RENEW_EVERY_MS) {
        await db
          .update(sessions)
          .set({ lastUsedAt: new Date(now), expiresAt: new Date(now + SESSION_TTL_MS) })
          .where(and(eq(sessions.id, row.id), isNull(sessions.endedAt)));
        row.lastUsedAt = new Date(now);
        row.expiresAt = new Date(now + SESSION_TTL_MS);
      }
      return { sessionId: row.id, userId: row.userId };
    },

    /** Drops every cached lookup of one person's sessions, here and elsewhere (their rows are being deleted). */
    forgetUser(userId: string): void {
      evict({ userId });
      options.announce?.({ userId });
    },

    /**
     * Ends one session, keeping it as a tombstone; every process stops accepting it, at once or
     * after `graceMs` (a session replaced by a new one: calls already sent with its token still
     * get their answers). An earlier end is never put off.
     */
    async end(ctx: SessionContext, opts: { graceMs?: number } = {}): Promise<void> {
      evict(ctx);
      const endsAt = new Date(clock.nowMs() + (opts.graceMs ?? 0));
      await db
        .update(sessions)
        .set({ endedAt: endsAt })
        .where(
          and(
            eq(sessions.id, ctx.sessionId),
            eq(sessions.userId, ctx.userId),
            or(isNull(sessions.endedAt), gt(sessions.endedAt, endsAt)),
          ),
        );
      // After the write: a process that looks the row up again now finds it ended.
      evict(ctx);
      options.announce?.({ userId: ctx.userId, sessionId: ctx.sessionId });
    },

    /** Another process ended these sessions: forget their cached rows. */
    evict,

    /** Notices may have been lost: nothing cached can be trusted. */
    evictAll(): void {
      cache.clear();
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
