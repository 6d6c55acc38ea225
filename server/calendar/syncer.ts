import { ProviderError } from "../auth/errors.ts";
import type { Clock } from "../lib/clock.ts";
import type { CalendarEventStore } from "./event-store.ts";
import type { CalendarClientFactory } from "./factory.ts";
import type { CalendarIntegrationRow, CalendarIntegrations } from "./integrations.ts";
import { CalendarCursorExpiredError } from "./provider.ts";

const DAY_MS = 86_400_000;
/** What a full pass stores: two months back, a year ahead. Outside it, events are read live. */
export const SYNC_PAST_DAYS = 60;
export const SYNC_FUTURE_DAYS = 365;
/** Once the window's start is this far behind, a new full pass moves it along with the clock. */
const WINDOW_REFRESH_DAYS = 90;

export interface CalendarSyncOutcome {
  fullResync: boolean;
  changed: number;
}

export interface CalendarSyncLog {
  warn(obj: object, msg: string): void;
}

/**
 * Keeps one connected calendar's events in step with the provider: a windowed full pass that
 * ends in a cursor (Google nextSyncToken, Graph deltaLink), then incremental rounds from it. An
 * expired cursor (410) starts a new full pass, which replaces the stored events in one
 * transaction, so the calendar converges to the provider's state whatever was missed.
 */
export function createCalendarSyncer(deps: {
  clock: Clock;
  integrations: CalendarIntegrations;
  store: CalendarEventStore;
  clientFor: CalendarClientFactory;
  log?: CalendarSyncLog;
}) {
  const { clock, integrations, store, clientFor } = deps;
  // One sync per calendar at a time in this process; callers arriving meanwhile share its result.
  const inFlight = new Map<string, Promise<CalendarSyncOutcome>>();

  async function run(integration: CalendarIntegrationRow): Promise<CalendarSyncOutcome> {
    const client = clientFor(integration);
    let calendarId = integration.calendarId;
    if (!calendarId) {
      const info = await client.primaryCalendar();
      await integrations.setCalendar(integration.id, info);
      calendarId = info.id;
    }
    const now = clock.now();
    const windowStale =
      !integration.syncWindowStart ||
      now.getTime() - integration.syncWindowStart.getTime() > WINDOW_REFRESH_DAYS * DAY_MS;
    if (integration.syncCursor && !windowStale) {
      try {
        const changes = await client.changes(calendarId, integration.syncCursor);
        await store.applyChanges({
          userId: integration.userId,
          integrationId: integration.id,
          expectedCursor: integration.syncCursor,
          upserts: changes.upserts,
          removedIds: changes.removedIds,
          cursor: changes.cursor,
          now: clock.now(),
        });
        return { fullResync: false, changed: changes.upserts.length + changes.removedIds.length };
      } catch (err) {
        if (!(err instanceof CalendarCursorExpiredError)) throw err;
      }
    }
    const window = {
      start: new Date(now.getTime() - SYNC_PAST_DAYS * DAY_MS),
      end: new Date(now.getTime() + SYNC_FUTURE_DAYS * DAY_MS),
    };
    const full = await client.fullSync(calendarId, window);
    await store.replaceAll({
      userId: integration.userId,
      integrationId: integration.id,
      expectedCursor: integration.syncCursor,
      events: full.events,
      cursor: full.cursor,
      window,
      now: clock.now(),
    });
    return { fullResync: true, changed: full.events.length };
  }

  return {
    /** Syncs one calendar; provider failures are recorded on it (shown on the screen) and rethrown. */
    sync(integration: CalendarIntegrationRow): Promise<CalendarSyncOutcome> {
      const pending = inFlight.get(integration.id);
      if (pending) return pending;
      const task = run(integration)
        .catch(async (err: unknown) => {
          const reauth = err instanceof ProviderError && err.kind === "reauth";
          const message = reauth
            ? "Calendar access was withdrawn. Connect the calendar again."
            : "The calendar provider did not answer. Mailwise will try again.";
          await integrations.recordError(integration.id, message, reauth).catch(() => undefined);
          deps.log?.warn({ integrationId: integration.id, err }, "calendar sync failed");
          throw err;
        })
        .finally(() => inFlight.delete(integration.id));
      inFlight.set(integration.id, task);
      return task;
    },

    /** Wait for every sync in flight (tests, shutdown). */
    async idle(): Promise<void> {
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}

export type CalendarSyncer = ReturnType<typeof createCalendarSyncer>;
