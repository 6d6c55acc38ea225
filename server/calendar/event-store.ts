import { createHash } from "node:crypto";
import { and, asc, eq, gt, inArray, lt, or, sql } from "drizzle-orm";
import type { CalendarWindow } from "../../contract/calendar-window.ts";
import type { Db } from "../db/client.ts";
import { calendarEvents, calendarIntegrations } from "../db/schema.ts";
import type { ProviderEvent } from "./provider.ts";

export type CalendarEventRow = typeof calendarEvents.$inferSelect;
type NewRow = typeof calendarEvents.$inferInsert;

/** A stable id per (calendar, provider event): the same whether the event is stored or read live. */
export function eventUuid(integrationId: string, providerEventId: string): string {
  const hex = createHash("sha256").update(`${integrationId}\u0000${providerEventId}`).digest("hex");
  // Shaped as a version 8 (custom) UUID so it fits the uuid column and looks like every other id.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function rowOf(
  userId: string,
  integrationId: string,
  event: ProviderEvent,
  now: Date,
): CalendarEventRow {
  const timed = event.start.kind === "timed" && event.end.kind === "timed";
  return {
    id: eventUuid(integrationId, event.providerId),
    userId,
    integrationId,
    providerEventId: event.providerId,
    seriesId: event.seriesId,
    title: event.title,
    location: event.location,
    allDay: !timed,
    startAt: event.start.kind === "timed" ? event.start.at : null,
    endAt: event.end.kind === "timed" ? event.end.at : null,
    startDate: event.start.kind === "date" ? event.start.date : null,
    endDate: event.end.kind === "date" ? event.end.date : null,
    timeZone: event.start.kind === "timed" ? event.start.timeZone : null,
    status: event.status,
    organizer: event.organizer,
    attendees: event.attendees,
    htmlLink: event.htmlLink,
    updatedAt: now,
  };
}

const CHUNK = 200;

async function insertRows(q: Db, rows: NewRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await q
      .insert(calendarEvents)
      .values(chunk)
      .onConflictDoUpdate({
        target: [calendarEvents.integrationId, calendarEvents.providerEventId],
        set: {
          seriesId: sql`excluded.series_id`,
          title: sql`excluded.title`,
          location: sql`excluded.location`,
          allDay: sql`excluded.all_day`,
          startAt: sql`excluded.start_at`,
          endAt: sql`excluded.end_at`,
          startDate: sql`excluded.start_date`,
          endDate: sql`excluded.end_date`,
          timeZone: sql`excluded.time_zone`,
          status: sql`excluded.status`,
          organizer: sql`excluded.organizer`,
          attendees: sql`excluded.attendees`,
          htmlLink: sql`excluded.html_link`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
  }
}

/** A provider may list one event twice across pages; the last copy wins. */
function dedupe(rows: NewRow[]): NewRow[] {
  return [...new Map(rows.map((row) => [row.providerEventId, row])).values()];
}

/**
 * Where synced events are kept. Every write happens in one transaction that first checks the
 * integration's cursor is still the one the sync started from (compare-and-set), so two syncs of
 * one calendar, in one process or two, can never apply changes out of order or twice.
 */
export function createCalendarEventStore(db: Db) {
  async function lockCursor(tx: Db, integrationId: string): Promise<string | null | undefined> {
    const [row] = await tx
      .select({ cursor: calendarIntegrations.syncCursor })
      .from(calendarIntegrations)
      .where(eq(calendarIntegrations.id, integrationId))
      .for("update");
    return row === undefined ? undefined : row.cursor;
  }

  return {
    /** A full pass: the calendar's events become exactly these. False when another sync won. */
    async replaceAll(input: {
      userId: string;
      integrationId: string;
      expectedCursor: string | null;
      events: ProviderEvent[];
      cursor: string;
      window: { start: Date; end: Date };
      now: Date;
    }): Promise<boolean> {
      return db.transaction(async (tx) => {
        const current = await lockCursor(tx, input.integrationId);
        if (current === undefined || current !== input.expectedCursor) return false;
        await tx.delete(calendarEvents).where(eq(calendarEvents.integrationId, input.integrationId));
        await insertRows(
          tx,
          dedupe(input.events.map((e) => rowOf(input.userId, input.integrationId, e, input.now))),
        );
        await tx
          .update(calendarIntegrations)
          .set({
            syncCursor: input.cursor,
            syncWindowStart: input.window.start,
            syncWindowEnd: input.window.end,
            lastSyncedAt: input.now,
            lastError: null,
            updatedAt: input.now,
          })
          .where(eq(calendarIntegrations.id, input.integrationId));
        return true;
      });
    },

    /** One incremental round: removals (a series takes its occurrences along), then upserts. */
    async applyChanges(input: {
      userId: string;
      integrationId: string;
      expectedCursor: string;
      upserts: ProviderEvent[];
      removedIds: string[];
      cursor: string;
      now: Date;
    }): Promise<boolean> {
      return db.transaction(async (tx) => {
        const current = await lockCursor(tx, input.integrationId);
        if (current !== input.expectedCursor) return false;
        if (input.removedIds.length > 0) {
          await tx
            .delete(calendarEvents)
            .where(
              and(
                eq(calendarEvents.integrationId, input.integrationId),
                or(
                  inArray(calendarEvents.providerEventId, input.removedIds),
                  inArray(calendarEvents.seriesId, input.removedIds),
                ),
              ),
            );
        }
        await insertRows(
          tx,
          dedupe(input.upserts.map((e) => rowOf(input.userId, input.integrationId, e, input.now))),
        );
        await tx
          .update(calendarIntegrations)
          .set({ syncCursor: input.cursor, lastSyncedAt: input.now, lastError: null, updatedAt: input.now })
          .where(eq(calendarIntegrations.id, input.integrationId));
        return true;
      });
    },

    /** Stores one event we just created, so it shows before the next sync. */
    async upsertOne(
      userId: string,
      integrationId: string,
      event: ProviderEvent,
      now: Date,
    ): Promise<CalendarEventRow> {
      const row = rowOf(userId, integrationId, event, now);
      await insertRows(db, [row]);
      const [stored] = await db
        .select()
        .from(calendarEvents)
        .where(and(eq(calendarEvents.id, row.id), eq(calendarEvents.userId, userId)));
      if (!stored) throw new Error("the created event was not stored");
      return stored;
    },

    /** The user's stored events in the window: timed ones by instant, all-day ones by local date. */
    async inWindow(
      userId: string,
      integrationIds: string[],
      window: CalendarWindow,
    ): Promise<CalendarEventRow[]> {
      if (integrationIds.length === 0) return [];
      return db
        .select()
        .from(calendarEvents)
        .where(
          and(
            eq(calendarEvents.userId, userId),
            inArray(calendarEvents.integrationId, integrationIds),
            or(
              and(
                eq(calendarEvents.allDay, false),
                lt(calendarEvents.startAt, new Date(window.end)),
                gt(calendarEvents.endAt, new Date(window.start)),
              ),
              and(
                eq(calendarEvents.allDay, true),
                lt(calendarEvents.startDate, window.endDate),
                gt(calendarEvents.endDate, window.startDate),
              ),
            ),
          ),
        )
        .orderBy(asc(calendarEvents.startAt), asc(calendarEvents.startDate), asc(calendarEvents.id));
    },
  };
}

export type CalendarEventStore = ReturnType<typeof createCalendarEventStore>;
