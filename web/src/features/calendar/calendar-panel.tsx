import { useEffect, useState } from "react";
import type {
  CalendarEvent,
  CalendarIntegration,
  CalendarProvider,
  CalendarView,
} from "../../../../contract/calendar.ts";
import { calendarWindow, isValidDate, stepDate, todayIn } from "../../../../contract/calendar-window.ts";
import { toast } from "../../components/ui/toast-store.ts";
import { ApiError } from "../../lib/api.ts";
import {
  connectCalendar,
  useCalendarEvents,
  useCalendarIntegrations,
  useCalendarSync,
  useCreateCalendarEvent,
  useDisconnectCalendar,
} from "./calendar-api.ts";
import { EventDetailsDialog } from "./event-details-dialog.tsx";
import { EventFormDialog } from "./event-form-dialog.tsx";
import { browserTimeZone, PROVIDER_NAME, viewTitle } from "./format.ts";
import { MonthGrid } from "./month-grid.tsx";
import { TimeGrid } from "./time-grid.tsx";

const VIEWS: { id: CalendarView; label: string }[] = [
  { id: "day", label: "Day" },
  { id: "week", label: "Week" },
  { id: "month", label: "Month" },
];
const STEP_NAME: Record<CalendarView, string> = { day: "day", week: "week", month: "month" };

const button =
  "rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:opacity-60";

/** The clock the current-time line follows, ticking each minute. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The Calendar panel (spec sections 2, 4, 7, 9): day, week and month views of every connected
 * Google and Outlook calendar in the person's time zone, with previous/next, today, sync,
 * add-event and connect controls.
 */
export default function CalendarPanel() {
  const timeZone = browserTimeZone();
  const nowMs = useNow();
  const [view, setView] = useState<CalendarView>(() =>
    typeof window !== "undefined" && window.matchMedia?.("(max-width: 640px)").matches ? "day" : "week",
  );
  const [date, setDate] = useState(() => todayIn(timeZone));
  const [openEvent, setOpenEvent] = useState<CalendarEvent | null>(null);
  const [adding, setAdding] = useState(false);

  const integrations = useCalendarIntegrations();
  const all = integrations.data ?? [];
  const connected = all.filter((i) => i.isConnected && i.id !== null);
  const writable = connected.filter((i) => i.status === "active");
  const window_ = calendarWindow(date, view, timeZone);
  const events = useCalendarEvents(date, view, timeZone, connected.length > 0);
  const sync = useCalendarSync();
  const create = useCreateCalendarEvent();
  const list = connected.length > 0 ? (events.data?.events ?? []) : [];

  const title = viewTitle(view, date, window_);
  const openDay = (day: string) => {
    setDate(day);
    setView("day");
  };

  const runSync = () =>
    sync.mutate(undefined, {
      onSuccess: (answer) => {
        const failed = answer.integrations.filter((i) => !i.ok);
        if (failed.length === 0) toast({ title: "Calendar synced" });
        else
          toast({
            title: "Sync failed",
            description: failed.map((f) => `${f.email}: ${f.error ?? "failed"}`).join(" "),
            variant: "destructive",
          });
      },
      onError: (err) =>
        toast({
          title: "Sync failed",
          description: err instanceof Error ? err.message : "",
          variant: "destructive",
        }),
    });

  return (
    <div className="space-y-3" data-testid="calendar-panel">
      <div className="flex flex-wrap items-center gap-2">
        <fieldset className="flex rounded-lg border border-slate-300 p-0.5">
          <legend className="sr-only">View</legend>
          {VIEWS.map((v) => (
            <button
              key={v.id}
              type="button"
              aria-pressed={view === v.id}
              onClick={() => setView(v.id)}
              className={`rounded-md px-2.5 py-1 text-sm focus-visible:outline-2 focus-visible:outline-brand-600 ${view === v.id ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {v.label}
            </button>
          ))}
        </fieldset>
        <div className="flex items-center gap-1">
          <button
            type="button"
            className={button}
            aria-label={`Previous ${STEP_NAME[view]}`}
            onClick={() => setDate(stepDate(date, view, -1))}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <button type="button" className={button} onClick={() => setDate(todayIn(timeZone))}>
            Today
          </button>
          <button
            type="button"
            className={button}
            aria-label={`Next ${STEP_NAME[view]}`}
            onClick={() => setDate(stepDate(date, view, 1))}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
        <label className="flex items-center gap-1 text-xs text-slate-600">
          <span className="sr-only">Go to date</span>
          <input
            type="date"
            value={date}
            onChange={(e) => {
              if (isValidDate(e.target.value)) setDate(e.target.value);
            }}
            className="rounded-lg border border-slate-300 px-2 py-1 text-sm text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
          />
        </label>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3
          className="text-base font-semibold text-slate-900"
          aria-live="polite"
          data-testid="calendar-title"
        >
          {title}
        </h3>
        <div className="flex gap-2">
          <button
            type="button"
            className={button}
            onClick={runSync}
            disabled={connected.length === 0 || sync.isPending}
          >
            {sync.isPending ? "Syncing…" : "Sync"}
          </button>
          <button
            type="button"
            className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:opacity-60"
            onClick={() => setAdding(true)}
            disabled={writable.length === 0}
          >
            Add event
          </button>
        </div>
      </div>

      {connected.length > 0 && events.isError ? (
        <p role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-800">
          Your events could not be loaded. {events.error instanceof Error ? events.error.message : ""}
        </p>
      ) : null}

      {view === "month" ? (
        <MonthGrid
          days={window_.days}
          month={date.slice(0, 7)}
          events={list}
          timeZone={timeZone}
          nowMs={nowMs}
          onOpenEvent={setOpenEvent}
          onOpenDay={openDay}
        />
      ) : (
        <TimeGrid
          days={window_.days}
          events={list}
          timeZone={timeZone}
          nowMs={nowMs}
          onOpenEvent={setOpenEvent}
          onOpenDay={openDay}
        />
      )}
      {connected.length > 0 && events.isFetching && !events.data ? (
        <p className="text-sm text-slate-600">Loading events…</p>
      ) : null}

      <Connections integrations={all} loading={integrations.isPending} />

      <EventDetailsDialog
        event={openEvent}
        timeZone={timeZone}
        onOpenChange={(open) => (open ? null : setOpenEvent(null))}
      />
      <EventFormDialog
        open={adding}
        onOpenChange={setAdding}
        calendars={writable}
        date={date}
        timeZone={timeZone}
        nowMs={nowMs}
        onSubmit={async (input) => (await create.mutateAsync(input)).event}
        onCreated={(event) =>
          toast({ title: "Event added", description: `${event.title} is on your calendar.` })
        }
      />
    </div>
  );
}

/** Each connected mailbox's calendar: connect it, see its state, or disconnect it. */
function Connections({ integrations, loading }: { integrations: CalendarIntegration[]; loading: boolean }) {
  const disconnect = useDisconnectCalendar();
  const [connecting, setConnecting] = useState<string | null>(null);
  if (loading) return <p className="text-sm text-slate-600">Loading calendars…</p>;
  const none = integrations.every((i) => !i.isConnected);
  const connect = async (provider: CalendarProvider, accountId: string | null, key: string) => {
    setConnecting(key);
    try {
      await connectCalendar(provider, accountId);
    } catch (err) {
      setConnecting(null);
      toast({
        title: "Could not connect the calendar",
        description: err instanceof ApiError ? err.message : "Please try again.",
        variant: "destructive",
      });
    }
  };
  return (
    <section aria-labelledby="calendar-connections" className="rounded-lg border border-slate-200 p-3">
      <h3 id="calendar-connections" className="text-sm font-semibold text-slate-900">
        Calendars
      </h3>
      {none ? (
        <p className="mt-1 text-sm text-slate-600">
          Connect a calendar to see its events here. You are asked only for calendar access.
        </p>
      ) : null}
      <ul className="mt-2 space-y-2">
        {integrations.map((integration) => {
          const name = PROVIDER_NAME[integration.provider];
          const broken = integration.status === "reauth_required";
          const key = integration.accountId ?? integration.id ?? integration.email;
          return (
            <li key={key} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="min-w-0">
                <span className="font-medium text-slate-900">{name}</span>{" "}
                <span className="break-all text-slate-600">{integration.email}</span>
                {integration.isConnected && !broken && integration.lastError ? (
                  <span className="block text-xs text-amber-800">{integration.lastError}</span>
                ) : null}
                {broken ? (
                  <span className="block text-xs text-rose-700">Access was withdrawn: connect again.</span>
                ) : null}
              </span>
              {integration.isConnected && !broken && integration.id ? (
                <button
                  type="button"
                  className={button}
                  aria-label={`Disconnect ${name} (${integration.email})`}
                  disabled={disconnect.isPending}
                  onClick={() => {
                    const id = integration.id;
                    if (id)
                      disconnect.mutate(id, { onSuccess: () => toast({ title: "Calendar disconnected" }) });
                  }}
                >
                  Disconnect
                </button>
              ) : (
                <button
                  type="button"
                  className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:opacity-60"
                  aria-label={`Connect ${name} (${integration.email})`}
                  disabled={connecting !== null}
                  onClick={() => void connect(integration.provider, integration.accountId, key)}
                >
                  {connecting === key ? "Connecting…" : broken ? "Reconnect" : `Connect ${name}`}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {/* Any Google or Outlook calendar, whichever mailboxes are linked (spec section 2). */}
      <div className="mt-3 flex flex-wrap gap-2 border-t border-slate-200 pt-3">
        {PROVIDERS.map((provider) => (
          <button
            key={provider}
            type="button"
            className={button}
            disabled={connecting !== null}
            onClick={() => void connect(provider, null, `any:${provider}`)}
          >
            {connecting === `any:${provider}` ? "Connecting…" : `Connect ${PROVIDER_NAME[provider]}`}
          </button>
        ))}
      </div>
    </section>
  );
}

const PROVIDERS: CalendarProvider[] = ["google", "outlook"];
