import { and, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { authTickets, sessions } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { hashSecret, RANDOM_TOKEN_PATTERN, randomToken } from "./random.ts";

/**
 * What a ticket may be redeemed for. session_handoff: the sign-in server redirect's value that
 * the callback page trades for a session. A calendar connect navigation adds its own purpose.
 */
export type TicketPurpose = "session_handoff";

export const TICKET_MESSAGES = {
  invalid: "This sign-in link is not valid. Please start signing in again.",
  expired: "This sign-in link expired. Please start signing in again.",
  reused: "This sign-in link was already used. Please start signing in again.",
  otherBrowser: "Please finish signing in in the same browser where you started.",
} as const;

export interface RedeemedTicket {
  userId: string;
  /** The session the ticket acts for, still live; null when it was minted without one. */
  sessionId: string | null;
}

/**
 * Browser-bound single-use tickets (decision 0017). A ticket is 256 random bits, stored only as
 * its hash, valid for seconds to minutes, bound to the browser-flow cookie of the browser it was
 * handed to, and spent by one conditional UPDATE, so two racing redemptions cannot both win. A
 * ticket lifted from a URL, a log or another browser's history is therefore worthless: it needs
 * the httpOnly cookie too, and only once.
 */
export function createTicketStore(db: Db, clock: Clock) {
  return {
    async mint(input: {
      purpose: TicketPurpose;
      userId: string;
      sessionId: string | null;
      /** The browser's flow id (flow-cookie.ts issueFlowId), set on the same answer or earlier. */
      flowId: string;
      ttlSeconds: number;
    }): Promise<string> {
      const now = clock.now();
      // Housekeeping rides along instead of needing a job: drop tickets a day past their end.
      await db.delete(authTickets).where(lt(authTickets.expiresAt, new Date(now.getTime() - 86_400_000)));
      const ticket = randomToken();
      await db.insert(authTickets).values({
        ticketHash: hashSecret(ticket),
        purpose: input.purpose,
        userId: input.userId,
        sessionId: input.sessionId,
        flowHash: hashSecret(input.flowId),
        createdAt: now,
        expiresAt: new Date(now.getTime() + input.ttlSeconds * 1000),
      });
      return ticket;
    },

    /**
     * Spends a ticket exactly once. The browser binding is checked before the ticket is spent,
     * so a stranger replaying someone's ticket cannot burn it; a ticket minted for a session
     * dies with that session.
     */
    async redeem(input: {
      purpose: TicketPurpose;
      ticket: string | undefined;
      flowId: string | undefined;
    }): Promise<RedeemedTicket> {
      const { ticket, flowId } = input;
      if (!ticket || !RANDOM_TOKEN_PATTERN.test(ticket))
        throw new DomainError("bad_request", TICKET_MESSAGES.invalid);
      const [row] = await db
        .select({
          id: authTickets.id,
          purpose: authTickets.purpose,
          userId: authTickets.userId,
          sessionId: authTickets.sessionId,
          flowHash: authTickets.flowHash,
          expiresAt: authTickets.expiresAt,
          consumedAt: authTickets.consumedAt,
          sessionEndedAt: sessions.endedAt,
          sessionExpiresAt: sessions.expiresAt,
        })
        .from(authTickets)
        .leftJoin(sessions, eq(sessions.id, authTickets.sessionId))
        .where(eq(authTickets.ticketHash, hashSecret(ticket)));
      if (!row || row.purpose !== input.purpose)
        throw new DomainError("bad_request", TICKET_MESSAGES.invalid);
      if (row.consumedAt) throw new DomainError("bad_request", TICKET_MESSAGES.reused);
      const now = clock.now();
      if (row.expiresAt.getTime() <= now.getTime())
        throw new DomainError("bad_request", TICKET_MESSAGES.expired);
      if (!flowId || hashSecret(flowId) !== row.flowHash) {
        throw new DomainError("bad_request", TICKET_MESSAGES.otherBrowser);
      }
      if (
        row.sessionId !== null &&
        (row.sessionEndedAt !== null || (row.sessionExpiresAt?.getTime() ?? 0) <= now.getTime())
      ) {
        throw new DomainError("bad_request", TICKET_MESSAGES.expired);
      }
      const spent = await db
        .update(authTickets)
        .set({ consumedAt: now })
        .where(and(eq(authTickets.id, row.id), isNull(authTickets.consumedAt)))
        .returning({ id: authTickets.id });
      if (spent.length === 0) throw new DomainError("bad_request", TICKET_MESSAGES.reused);
      return { userId: row.userId, sessionId: row.sessionId };
    },
  };
}

export type TicketStore = ReturnType<typeof createTicketStore>;
