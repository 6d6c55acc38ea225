import { and, eq, isNull, lt, or } from "drizzle-orm";
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

/** Bearer sessions: random 256-bit tokens, only their SHA-256 stored. */
export function createSessionService(db: Db, clock: Clock) {
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
      const [row] = await db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashSecret(token)));
      if (!row) throw new DomainError("unauthorized", SESSION_MESSAGES.invalid);
      if (row.endedAt) throw new DomainError("session_expired", SESSION_MESSAGES.invalidated);
      const now = clock.nowMs();
      if (row.expiresAt.getTime() <= now) throw new DomainError("session_expired", SESSION_MESSAGES.expired);
      if (now - row.lastUsedAt.getTime() >= RENEW_EVERY_MS) {
        await db
          .update(sessions)
          .set({ lastUsedAt: new Date(now), expiresAt: new Date(now + SESSION_TTL_MS) })
          .where(and(eq(sessions.id, row.id), isNull(sessions.endedAt)));
      }
      return { sessionId: row.id, userId: row.userId };
    },

    /** Ends one session, keeping it as a tombstone. */
    async end(ctx: SessionContext): Promise<void> {
      await db
        .update(sessions)
        .set({ endedAt: clock.now() })
        .where(
          and(eq(sessions.id, ctx.sessionId), eq(sessions.userId, ctx.userId), isNull(sessions.endedAt)),
        );
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
