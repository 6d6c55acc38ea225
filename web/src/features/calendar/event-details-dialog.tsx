import { Dialog } from "radix-ui";
import type { CalendarEvent } from "../../../../contract/calendar.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { eventTimeText, formatDate, PROVIDER_NAME, plannedZoneText, STATUS_TEXT } from "./format.ts";

const RESPONSE_TEXT: Record<CalendarEvent["attendees"][number]["responseStatus"], string> = {
  accepted: "Accepted",
  declined: "Declined",
  tentative: "Maybe",
  needsAction: "Not answered",
};

interface Props {
  event: CalendarEvent | null;
  timeZone: string;
  onOpenChange: (open: boolean) => void;
}

/** One event in full: when (and when where it was planned), where, who, and on which calendar. */
export function EventDetailsDialog({ event, timeZone, onOpenChange }: Props) {
  const day = event
    ? event.allDay
      ? event.start
      : new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date(event.start))
    : null;
  const zoneText = event ? plannedZoneText(event, timeZone) : null;
  return (
    <DialogRoot open={event !== null} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          {event ? (
            <>
              <div className="flex items-start justify-between gap-4">
                <Dialog.Title
                  className={`text-lg font-semibold text-slate-900 ${event.status === "cancelled" ? "line-through" : ""}`}
                >
                  {event.title}
                </Dialog.Title>
                <Dialog.Close
                  className="rounded px-2 text-xl leading-none text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
                  aria-label="Close"
                >
                  ×
                </Dialog.Close>
              </div>
              <Dialog.Description className="mt-1 text-sm text-slate-700">
                {day
                  ? formatDate(day, { weekday: "long", day: "numeric", month: "long", year: "numeric" })
                  : null}
                {" · "}
                {eventTimeText(event, timeZone)}
                {zoneText ? ` (${zoneText})` : null}
              </Dialog.Description>
              <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-2 text-sm">
                <dt className="text-slate-600">Status</dt>
                <dd className="text-slate-900">{STATUS_TEXT[event.status]}</dd>
                {event.location ? (
                  <>
                    <dt className="text-slate-600">Where</dt>
                    <dd className="text-slate-900">{event.location}</dd>
                  </>
                ) : null}
                <dt className="text-slate-600">Calendar</dt>
                <dd className="text-slate-900">
                  {PROVIDER_NAME[event.provider]} ({event.calendarEmail})
                </dd>
                {event.organizer ? (
                  <>
                    <dt className="text-slate-600">Organizer</dt>
                    <dd className="break-all text-slate-900">{event.organizer}</dd>
                  </>
                ) : null}
              </dl>
              {event.attendees.length > 0 ? (
                <section className="mt-4" aria-labelledby="event-guests">
                  <h3 id="event-guests" className="text-sm font-medium text-slate-900">
                    Guests ({event.attendees.length})
                  </h3>
                  <ul className="mt-1 space-y-1 text-sm">
                    {event.attendees.map((attendee) => (
                      <li key={attendee.email} className="flex justify-between gap-3">
                        <span className="min-w-0 truncate text-slate-800">
                          {attendee.name ?? attendee.email}
                        </span>
                        <span className="shrink-0 text-slate-600">
                          {RESPONSE_TEXT[attendee.responseStatus]}
                        </span>
                      </li>
                    ))}
                  </ul>
                </section>
              ) : null}
              {event.htmlLink?.startsWith("https://") ? (
                <a
                  href={event.htmlLink}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="mt-4 inline-block text-sm text-brand-700 underline hover:text-brand-900"
                >
                  Open in {PROVIDER_NAME[event.provider]}
                </a>
              ) : null}
            </>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}
