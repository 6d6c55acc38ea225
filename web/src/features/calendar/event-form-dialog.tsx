import { Dialog } from "radix-ui";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Temporal } from "temporal-polyfill";
import type {
  CalendarEvent,
  CalendarIntegration,
  CreateCalendarEventRequest,
} from "../../../../contract/calendar.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { ApiError } from "../../lib/api.ts";
import { PROVIDER_NAME } from "./format.ts";

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  calendars: CalendarIntegration[];
  /** The day the form starts on (the one on screen). */
  date: string;
  timeZone: string;
  nowMs: number;
  onSubmit: (input: CreateCalendarEventRequest) => Promise<CalendarEvent>;
  onCreated: (event: CalendarEvent) => void;
}

const input =
  "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 aria-[invalid=true]:border-rose-600";

interface Draft {
  integrationId: string;
  title: string;
  allDay: boolean;
  start: string;
  end: string;
  location: string;
  guests: string;
}

/** Starts at the next full hour when the day is today, else at 09:00; lasts an hour. */
function initialDraft(
  calendars: CalendarIntegration[],
  date: string,
  timeZone: string,
  nowMs: number,
): Draft {
  const now = Temporal.Instant.fromEpochMilliseconds(nowMs).toZonedDateTimeISO(timeZone);
  const isToday = now.toPlainDate().toString() === date;
  const hour = isToday ? Math.min(now.hour + 1, 23) : 9;
  const start = Temporal.PlainDate.from(date).toPlainDateTime({ hour });
  const end = start.add({ hours: 1 });
  const fmt = (value: Temporal.PlainDateTime) => value.toString({ smallestUnit: "minute" });
  return {
    integrationId: calendars[0]?.id ?? "",
    title: "",
    allDay: false,
    start: fmt(start),
    end: fmt(end),
    location: "",
    guests: "",
  };
}

/** Add event (beyond the spec): on a chosen connected calendar, checked before it is sent. */
export function EventFormDialog({
  open,
  onOpenChange,
  calendars,
  date,
  timeZone,
  nowMs,
  onSubmit,
  onCreated,
}: Props) {
  const [draft, setDraft] = useState<Draft>(() => initialDraft(calendars, date, timeZone, nowMs));
  const [errors, setErrors] = useState<Partial<Record<keyof Draft | "form", string>>>({});
  const [busy, setBusy] = useState(false);
  const ids = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the dialog opens
  useEffect(() => {
    if (open) {
      setDraft(initialDraft(calendars, date, timeZone, nowMs));
      setErrors({});
    }
  }, [open]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const toggleAllDay = (allDay: boolean) =>
    setDraft((d) => {
      const startDay = d.start.slice(0, 10);
      const endDay = d.end.slice(0, 10);
      if (allDay) {
        const end = Temporal.PlainDate.from(endDay) > Temporal.PlainDate.from(startDay) ? endDay : startDay;
        return { ...d, allDay, start: startDay, end };
      }
      return { ...d, allDay, start: `${startDay}T09:00`, end: `${endDay}T10:00` };
    });

  const validate = (): Partial<Record<keyof Draft, string>> => {
    const found: Partial<Record<keyof Draft, string>> = {};
    if (!draft.integrationId) found.integrationId = "Choose a calendar";
    if (draft.title.trim() === "") found.title = "Title is required";
    if (!draft.start) found.start = "Start is required";
    if (!draft.end) found.end = "End is required";
    // All-day ends are inclusive on screen, exclusive on the wire.
    if (draft.start && draft.end && (draft.allDay ? draft.end < draft.start : draft.end <= draft.start))
      found.end = "End must be after start";
    const bad = draft.guests
      .split(/[,;\s]+/)
      .filter(Boolean)
      .find((guest) => !/^[^\s@]+@(?=[^\s@]+\.[^\s@])[^\s@]+$/.test(guest));
    if (bad) found.guests = `${bad} is not an email address`;
    return found;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const created = await onSubmit({
        integrationId: draft.integrationId,
        title: draft.title.trim(),
        allDay: draft.allDay,
        start: draft.start,
        end: draft.allDay ? Temporal.PlainDate.from(draft.end).add({ days: 1 }).toString() : draft.end,
        timeZone,
        ...(draft.location.trim() ? { location: draft.location.trim() } : {}),
        attendees: draft.guests.split(/[,;\s]+/).filter(Boolean),
      });
      onCreated(created);
      onOpenChange(false);
    } catch (err) {
      setErrors({
        form: err instanceof ApiError ? err.message : "The event could not be added. Please try again.",
      });
    } finally {
      setBusy(false);
    }
  };

  const field = (key: keyof Draft) => ({
    id: `${ids}-${key}`,
    "aria-invalid": errors[key] ? true : undefined,
    "aria-describedby": errors[key] ? `${ids}-${key}-error` : undefined,
  });
  const error = (key: keyof Draft) =>
    errors[key] ? (
      <p id={`${ids}-${key}-error`} className="mt-1 text-xs text-rose-700">
        {errors[key]}
      </p>
    ) : null;

  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-slate-900">Add event</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            Times are in your time zone ({timeZone.replaceAll("_", " ")}).
          </Dialog.Description>
          <form className="mt-4 space-y-3" onSubmit={submit} noValidate>
            <div>
              <label htmlFor={`${ids}-integrationId`} className="text-sm font-medium text-slate-800">
                Calendar
              </label>
              <select
                {...field("integrationId")}
                className={input}
                value={draft.integrationId}
                onChange={(e) => set("integrationId", e.target.value)}
              >
                {calendars.map((c) => (
                  <option key={c.id ?? c.accountId} value={c.id ?? ""}>
                    {PROVIDER_NAME[c.provider]} ({c.email})
                  </option>
                ))}
              </select>
              {error("integrationId")}
            </div>
            <div>
              <label htmlFor={`${ids}-title`} className="text-sm font-medium text-slate-800">
                Title
              </label>
              <input
                {...field("title")}
                className={input}
                value={draft.title}
                onChange={(e) => set("title", e.target.value)}
                maxLength={500}
              />
              {error("title")}
            </div>
            <div className="flex items-center gap-2">
              <input
                id={`${ids}-allDay`}
                type="checkbox"
                checked={draft.allDay}
                onChange={(e) => toggleAllDay(e.target.checked)}
                className="size-4 accent-brand-600"
              />
              <label htmlFor={`${ids}-allDay`} className="text-sm text-slate-800">
                All day
              </label>
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <div>
                <label htmlFor={`${ids}-start`} className="text-sm font-medium text-slate-800">
                  Starts
                </label>
                <input
                  {...field("start")}
                  type={draft.allDay ? "date" : "datetime-local"}
                  className={input}
                  value={draft.start}
                  onChange={(e) => set("start", e.target.value)}
                />
                {error("start")}
              </div>
              <div>
                <label htmlFor={`${ids}-end`} className="text-sm font-medium text-slate-800">
                  Ends
                </label>
                <input
                  {...field("end")}
                  type={draft.allDay ? "date" : "datetime-local"}
                  className={input}
                  value={draft.end}
                  onChange={(e) => set("end", e.target.value)}
                />
                {error("end")}
              </div>
            </div>
            <div>
              <label htmlFor={`${ids}-location`} className="text-sm font-medium text-slate-800">
                Location (optional)
              </label>
              <input
                {...field("location")}
                className={input}
                value={draft.location}
                onChange={(e) => set("location", e.target.value)}
                maxLength={500}
              />
            </div>
            <div>
              <label htmlFor={`${ids}-guests`} className="text-sm font-medium text-slate-800">
                Guests (optional, email addresses)
              </label>
              <input
                {...field("guests")}
                className={input}
                value={draft.guests}
                onChange={(e) => set("guests", e.target.value)}
                placeholder="name@example.com, …"
              />
              {error("guests")}
            </div>
            {errors.form ? (
              <p role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-800">
                {errors.form}
              </p>
            ) : null}
            <div className="flex justify-end gap-2 pt-2">
              <Dialog.Close className="rounded-lg px-4 py-2 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600">
                Cancel
              </Dialog.Close>
              <button
                type="submit"
                disabled={busy}
                className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60"
              >
                {busy ? "Saving…" : "Save event"}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}
