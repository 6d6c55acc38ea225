import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { SecurityVerdict } from "../../../../contract/ai.ts";
import type {
  CalendarEvent,
  EmailInvitationResponse,
  Invitation,
  InvitationResponse,
} from "../../../../contract/calendar.ts";
import { toast } from "../../components/ui/toast-store.ts";
import { ApiError, apiRequest } from "../../lib/api.ts";
import { useCalendarIntegrations, useCreateCalendarEvent } from "./calendar-api.ts";
import { InvitationAnswerButtons } from "./invitation-answer.tsx";
import { browserTimeZone, PROVIDER_NAME } from "./labels.ts";

const BUTTON =
  "inline-flex items-center justify-center rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60";

/** When the invitation happens, in the reader's zone (all-day: the dates, end exclusive). */
export function invitationWhen(invitation: Invitation, timeZone: string): string {
  if (invitation.allDay) {
    const day = (date: string) =>
      new Intl.DateTimeFormat(undefined, {
        weekday: "long",
        day: "numeric",
        month: "long",
        year: "numeric",
        timeZone: "UTC",
      }).format(new Date(`${date}T12:00:00Z`));
    const last = new Date(Date.parse(`${invitation.end}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    return last === invitation.start
      ? `${day(invitation.start)}, all day`
      : `${day(invitation.start)} – ${day(last)}`;
  }
  const start = new Date(invitation.start);
  const end = new Date(invitation.end);
  const date = new Intl.DateTimeFormat(undefined, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
  });
  const sameDay =
    new Intl.DateTimeFormat("en-CA", { timeZone }).format(start) ===
    new Intl.DateTimeFormat("en-CA", { timeZone }).format(end);
  const endText = sameDay
    ? new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit", timeZone }).format(end)
    : date.format(end);
  return `${date.format(start)} – ${endText}`;
}

/** An invitation asks for an answer: a REQUEST (or no method) with an organizer and a UID. */
function answerable(invitation: Invitation): boolean {
  return (
    invitation.uid !== null &&
    invitation.organizer !== null &&
    (invitation.method === null || invitation.method === "REQUEST")
  );
}

export function useEmailInvitation(emailId: string) {
  const timeZone = browserTimeZone();
  return useQuery({
    queryKey: ["/api/emails/invitation", emailId, timeZone],
    queryFn: ({ signal }) =>
      apiRequest<EmailInvitationResponse>(
        "GET",
        `/api/emails/${encodeURIComponent(emailId)}/invitation?${new URLSearchParams({ tz: timeZone })}`,
        undefined,
        { signal },
      ),
    // An email's invitation does not change; a failed read is not worth retrying in a loop.
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/**
 * The invitation an email carries, shown above its body: what, when (in the reader's zone),
 * where and who, and "Add to calendar" onto a connected calendar (the Calendar panel's create
 * path). Renders nothing for mail without an invitation.
 *
 * An invitation is a way into the calendar for whoever sent the mail: its title, place and notes
 * (often a meeting link) land among the person's own events. In mail the security scan flagged,
 * the card says so; suspicious mail asks for a second, deliberate click, dangerous mail cannot
 * add at all.
 */
export function InvitationCard({ emailId, risk }: { emailId: string; risk?: SecurityVerdict | undefined }) {
  const answer = useEmailInvitation(emailId);
  const invitation = answer.data?.invitation;
  if (!invitation) return null;
  return (
    <InvitationDetails
      emailId={emailId}
      invitation={invitation}
      stored={answer.data?.answer ?? null}
      risk={risk ?? "safe"}
    />
  );
}

function InvitationDetails({
  emailId,
  invitation,
  stored,
  risk,
}: {
  emailId: string;
  invitation: Invitation;
  /** The person's answer as the server keeps it (null before any). */
  stored: InvitationResponse | null;
  risk: SecurityVerdict;
}) {
  const timeZone = browserTimeZone();
  const headingId = useId();
  const selectId = useId();
  const integrations = useCalendarIntegrations();
  const calendars = (integrations.data ?? []).filter((i) => i.isConnected && i.id && i.status === "active");
  const [chosen, setChosen] = useState<string | null>(null);
  const target = calendars.find((c) => c.id === chosen) ?? calendars[0];
  const create = useCreateCalendarEvent();
  const [added, setAdded] = useState<CalendarEvent | null>(null);
  const cancelled = invitation.status === "cancelled";
  const [confirmed, setConfirmed] = useState(false);

  const add = () => {
    if (!target?.id) return;
    create.mutate(
      {
        integrationId: target.id,
        title: invitation.title,
        allDay: invitation.allDay,
        start: invitation.start,
        end: invitation.end,
        timeZone: invitation.timeZone ?? timeZone,
        ...(invitation.location ? { location: invitation.location } : {}),
        ...(invitation.description ? { description: invitation.description } : {}),
      },
      {
        onSuccess: ({ event }) => {
          setAdded(event);
          toast({ title: "Added to your calendar", description: `${event.title} is on ${target.email}.` });
        },
        onError: (err) =>
          toast({
            title: "Could not add the event",
            description: err instanceof ApiError ? err.message : "Please try again.",
            variant: "destructive",
          }),
      },
    );
  };

  return (
    <section
      aria-labelledby={headingId}
      className="mb-4 rounded-xl border border-sky-200 bg-sky-50 p-3 text-sm text-slate-800"
      data-testid="invitation-card"
    >
      <p className="text-xs font-semibold tracking-wide text-sky-800 uppercase">
        {cancelled ? "Cancelled event" : "Invitation"}
      </p>
      <h3
        id={headingId}
        className={`mt-0.5 text-base font-semibold break-words text-slate-900 ${cancelled ? "line-through" : ""}`}
      >
        {invitation.title}
      </h3>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-600">When</dt>
        <dd className="min-w-0 break-words">
          {invitationWhen(invitation, timeZone)}
          {invitation.recurring ? <span className="block text-xs text-slate-600">Repeats</span> : null}
        </dd>
        {invitation.location ? (
          <>
            <dt className="text-slate-600">Where</dt>
            <dd className="min-w-0 break-words">{invitation.location}</dd>
          </>
        ) : null}
        {invitation.organizer ? (
          <>
            <dt className="text-slate-600">Organizer</dt>
            <dd className="min-w-0 break-words">
              {invitation.organizer.name
                ? `${invitation.organizer.name} (${invitation.organizer.email})`
                : invitation.organizer.email}
            </dd>
          </>
        ) : null}
        {invitation.attendees.length > 0 ? (
          <>
            <dt className="text-slate-600">Guests</dt>
            <dd className="min-w-0 break-words">
              {invitation.attendees.map((a) => a.name ?? a.email).join(", ")}
            </dd>
          </>
        ) : null}
      </dl>
      {answerable(invitation) && !cancelled && risk !== "dangerous" ? (
        <InvitationAnswerButtons
          emailId={emailId}
          stored={stored}
          calendarProviderOf={(email) => (integrations.data ?? []).find((i) => i.email === email)?.provider}
        />
      ) : null}
      {risk === "safe" || cancelled ? null : (
        <p
          className="mt-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900"
          data-testid="invitation-risk"
        >
          {risk === "dangerous"
            ? "This invitation came in mail marked dangerous. It cannot be added to your calendar from here."
            : "This invitation came in mail marked suspicious. Its details and links would go onto your calendar: add it only if you know the organizer."}
        </p>
      )}
      {cancelled || risk === "dangerous" ? null : added ? (
        <p role="status" className="mt-3 font-medium text-emerald-800">
          Added to {PROVIDER_NAME[target?.provider ?? "google"]} ({added.calendarEmail}).
        </p>
      ) : calendars.length === 0 ? (
        <p className="mt-3 text-slate-700">
          {integrations.isPending
            ? "Loading your calendars…"
            : "Connect a calendar in the Calendar panel to add this event to it."}
        </p>
      ) : (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {calendars.length > 1 ? (
            <>
              <label htmlFor={selectId} className="text-slate-700">
                Calendar
              </label>
              <select
                id={selectId}
                value={target?.id ?? ""}
                onChange={(e) => setChosen(e.target.value)}
                className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                {calendars.map((c) => (
                  <option key={c.id} value={c.id ?? ""}>
                    {PROVIDER_NAME[c.provider]} ({c.email})
                  </option>
                ))}
              </select>
            </>
          ) : null}
          {risk === "suspicious" && !confirmed ? (
            <button type="button" className={BUTTON} onClick={() => setConfirmed(true)}>
              Add anyway…
            </button>
          ) : (
            <button type="button" className={BUTTON} onClick={add} disabled={create.isPending}>
              {create.isPending
                ? "Adding…"
                : risk === "suspicious"
                  ? "Yes, add this event"
                  : "Add to calendar"}
            </button>
          )}
          {invitation.recurring ? (
            <span className="text-xs text-slate-600">Adds the first occurrence only.</span>
          ) : null}
        </div>
      )}
    </section>
  );
}
