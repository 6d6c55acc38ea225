import { and, eq, isNull, lt } from "drizzle-orm";
import { hashSecret, RANDOM_TOKEN_PATTERN, randomToken } from "../auth/random.ts";
import type { Db } from "../db/client.ts";
import { calendarConnectTickets, sessions } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";

/** A connect navigation follows its ticket at once; a minute covers a slow page. */
export const CONNECT_TICKET_TTL_SECONDS = 60;

export const TICKET_MESSAGE = "This calendar link is no longer valid. Please press Connect again.";

/**
 * One-time tickets for the calendar connect navigation (decision 0026). 256 random bits stored
 * as a hash, single use (one conditional UPDATE), a minute long, bound to the browser's flow
 * cookie and to the session that minted it (it dies with that session). A ticket copied out of
 * a URL or a history is worthless elsewhere, and the session token never appears in a URL.
 */
export function createConnectTickets(db: Db, clock: Clock) {
  return {
    async mint(input: { userId: string; sessionId: string; flowId: string }): Promise<string> {
      const now = clock.now();
      await db
        .delete(calendarConnectTickets)
        .where(lt(calendarConnectTickets.expiresAt, new Date(now.getTime() - 86_400_000)));
      const ticket = randomToken();
      await db.insert(calendarConnectTickets).values({
        ticketHash: hashSecret(ticket),
        userId: input.userId,
        sessionId: input.sessionId,
        flowHash: hashSecret(input.flowId),
        createdAt: now,
        expiresAt: new Date(now.getTime() + CONNECT_TICKET_TTL_SECONDS * 1000),
      });
      return ticket;
    },

    /** Spends a ticket once; every refusal reads the same, so probing learns nothing. */
    async redeem(input: {
      ticket: string | undefined;
      flowId: string | undefined;
    }): Promise<{ userId: string; sessionId: string }> {
      const refuse = () => new DomainError("bad_request", TICKET_MESSAGE);
      if (!input.ticket || !RANDOM_TOKEN_PATTERN.test(input.ticket) || !input.flowId) throw refuse();
      const [row] = await db
        .select({
          id: calendarConnectTickets.id,
          userId: calendarConnectTickets.userId,
          sessionId: calendarConnectTickets.sessionId,
          flowHash: calendarConnectTickets.flowHash,
          expiresAt: calendarConnectTickets.expiresAt,
          consumedAt: calendarConnectTickets.consumedAt,
          sessionEndedAt: sessions.endedAt,
          sessionExpiresAt: sessions.expiresAt,
        })
        .from(calendarConnectTickets)
        .innerJoin(sessions, eq(sessions.id, calendarConnectTickets.sessionId))
        .where(eq(calendarConnectTickets.ticketHash, hashSecret(input.ticket)));
      const now = clock.now();
      if (
        !row ||
        row.consumedAt !== null ||
        row.expiresAt.getTime() <= now.getTime() ||
        row.flowHash !== hashSecret(input.flowId) ||
        row.sessionEndedAt !== null ||
        row.sessionExpiresAt.getTime() <= now.getTime()
      ) {
        throw refuse();
      }
      const spent = await db
        .update(calendarConnectTickets)
        .set({ consumedAt: now })
        .where(and(eq(calendarConnectTickets.id, row.id), isNull(calendarConnectTickets.consumedAt)))
        .returning({ id: calendarConnectTickets.id });
      if (spent.length === 0) throw refuse();
      return { userId: row.userId, sessionId: row.sessionId };
    },
  };
}

export type ConnectTickets = ReturnType<typeof createConnectTickets>;
