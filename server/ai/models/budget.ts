import { and, count, eq, gte, sql } from "drizzle-orm";
import type { AiBudgetWindow } from "../../../contract/ai.ts";
import type { Db } from "../../db/client.ts";
import { aiBudget, aiConversations } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";

/** Model calls one user may make per minute and per UTC day; null means no limit. */
export interface BudgetLimits {
  perMinute: number | null;
  perDay: number | null;
}

export type BudgetTake =
  | { ok: true }
  | { ok: false; window: "minute" | "day"; retryAfterSeconds: number; resetsAt: Date };

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Stands in for "no limit" inside the statement (an int column never gets there in a day). */
const NO_LIMIT = 2_147_483_647;
/**
 * Background work (analysis of new mail, auto-drafts) may spend this share of each window, so a
 * large sync never leaves the person without model calls for what they ask for themselves.
 */
export const BACKGROUND_SHARE = 0.75;

/** The windows `at` falls in: the minute and the UTC day, as their start times. */
function windowsAt(at: number) {
  const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
  const day = Math.floor(at / DAY_MS) * DAY_MS;
  return { minute: new Date(minute), day: new Date(day) };
}

type Row = {
  taken: boolean;
  day: Date | string;
  day_calls: number;
  minute: Date | string;
  minute_calls: number;
};

const time = (v: Date | string) => (v instanceof Date ? v : new Date(v)).getTime();

function refusal(window: "minute" | "day", now: number, minute: Date, day: Date): BudgetTake {
  const resetsAt = new Date(window === "day" ? day.getTime() + DAY_MS : minute.getTime() + MINUTE_MS);
  return {
    ok: false,
    window,
    retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now) / 1000)),
    resetsAt,
  };
}

/**
 * The per-user budget of model calls (issue 13.4), counted in the database so that every process
 * draws on the same count. `take` is one statement: a conditional upsert of the user's row that
 * counts the call only when both windows have room, plus the row as it was when it had none.
 *
 * Window keys are the start of the minute and of the UTC day by the server clock. A process whose
 * clock is a little behind never moves a window back (GREATEST); its call counts in the newer one.
 */
export function createAiBudget(db: Db, clock: Clock, limits: BudgetLimits) {
  const cap = (limit: number | null, mode: "interactive" | "background") =>
    limit === null ? NO_LIMIT : mode === "interactive" ? limit : Math.floor(limit * BACKGROUND_SHARE);

  return {
    limits,

    /** Counts one model call for the user, or says which window is full and for how long. */
    async take(userId: string, mode: "interactive" | "background"): Promise<BudgetTake> {
      const minuteLimit = cap(limits.perMinute, mode);
      const dayLimit = cap(limits.perDay, mode);
      const now = clock.nowMs();
      const { minute, day } = windowsAt(now);
      // A share that rounds to nothing: no call, and nothing to count.
      if (dayLimit < 1 || minuteLimit < 1) return refusal(dayLimit < 1 ? "day" : "minute", now, minute, day);
      const attempt = async () => {
        const result = await db.execute(sql`
        with taken as (
          insert into ${aiBudget} as b (user_id, day, day_calls, minute, minute_calls)
          values (${userId}, ${day.toISOString()}::timestamptz, 1, ${minute.toISOString()}::timestamptz, 1)
          on conflict (user_id) do update set
            day_calls = case when excluded.day > b.day then 1 else b.day_calls + 1 end,
            day = greatest(b.day, excluded.day),
            minute_calls = case when excluded.minute > b.minute then 1 else b.minute_calls + 1 end,
            minute = greatest(b.minute, excluded.minute)
          where (excluded.day > b.day or b.day_calls < ${dayLimit}::int)
            and (excluded.minute > b.minute or b.minute_calls < ${minuteLimit}::int)
          returning b.day, b.day_calls, b.minute, b.minute_calls
        )
        select true as taken, day, day_calls, minute, minute_calls from taken
        union all
        select false, day, day_calls, minute, minute_calls from ${aiBudget}
        where user_id = ${userId} and not exists (select 1 from taken)`);
        return (result as unknown as { rows: Row[] }).rows[0];
      };
      // No row at all means a call of another connection created the user's row after this
      // statement's snapshot was taken: the conflict made the upsert wait and refuse, yet the
      // snapshot cannot see the row. The next statement sees it.
      const row = (await attempt()) ?? (await attempt());
      if (!row) return refusal("minute", now, minute, day);
      if (row.taken) return { ok: true };
      // Full: the day if its count is spent (the longer wait), else the minute.
      const dayFull = time(row.day) >= day.getTime() && row.day_calls >= dayLimit;
      return refusal(
        dayFull ? "day" : "minute",
        now,
        new Date(Math.max(time(row.minute), minute.getTime())),
        new Date(Math.max(time(row.day), day.getTime())),
      );
    },

    /** The user's counts in the current windows, and AI requests made today by any engine. */
    async usage(userId: string): Promise<{
      minute: AiBudgetWindow;
      day: AiBudgetWindow;
      requestsToday: number;
    }> {
      const now = clock.nowMs();
      const { minute, day } = windowsAt(now);
      const [row] = await db.select().from(aiBudget).where(eq(aiBudget.userId, userId));
      const [requests] = await db
        .select({ n: count() })
        .from(aiConversations)
        .where(and(eq(aiConversations.userId, userId), gte(aiConversations.createdAt, day)));
      const used = (stored: Date | undefined, calls: number | undefined, start: Date) =>
        stored && calls !== undefined && stored.getTime() >= start.getTime() ? calls : 0;
      return {
        minute: {
          used: used(row?.minute, row?.minuteCalls, minute),
          limit: limits.perMinute,
          resetsAt: new Date(minute.getTime() + MINUTE_MS).toISOString(),
        },
        day: {
          used: used(row?.day, row?.dayCalls, day),
          limit: limits.perDay,
          resetsAt: new Date(day.getTime() + DAY_MS).toISOString(),
        },
        requestsToday: requests?.n ?? 0,
      };
    },
  };
}

export type AiBudget = ReturnType<typeof createAiBudget>;
