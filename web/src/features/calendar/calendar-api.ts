import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CalendarEvent,
  CalendarEventsResponse,
  CalendarIntegration,
  CalendarProvider,
  CalendarSyncResponse,
  CalendarView,
  CreateCalendarEventRequest,
  InvitationAnswer,
  InvitationResponse,
} from "../../../../contract/calendar.ts";
import { apiRequest, type RequestOptions } from "../../lib/api.ts";
import { readCalendarSessionToken } from "../../lib/storage-keys.ts";

export const INTEGRATIONS_KEY = ["/api/calendar/integrations"] as const;
export const EVENTS_KEY = ["/api/calendar/events"] as const;

/** Spec section 9: integrations every 30 s, events every 60 s. */
const INTEGRATIONS_REFETCH_MS = 30_000;
const EVENTS_REFETCH_MS = 60_000;

/** Calendar calls read the token from `sessionToken`, else `session_token` (spec section 3). */
function calendarRequest<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}) {
  return apiRequest<T>(method, path, body, { ...options, readToken: readCalendarSessionToken });
}

export function useCalendarIntegrations() {
  return useQuery({
    queryKey: INTEGRATIONS_KEY,
    queryFn: ({ signal }) =>
      calendarRequest<CalendarIntegration[] | null>("GET", INTEGRATIONS_KEY[0], undefined, {
        on401: "returnNull",
        signal,
      }),
    refetchInterval: INTEGRATIONS_REFETCH_MS,
  });
}

export function eventsUrl(date: string, view: CalendarView, timeZone: string): string {
  return `/api/calendar/events?${new URLSearchParams({ date, view, tz: timeZone }).toString()}`;
}

/** Spec section 4: events are fetched only when at least one calendar is connected. */
export function useCalendarEvents(date: string, view: CalendarView, timeZone: string, enabled: boolean) {
  return useQuery({
    queryKey: [...EVENTS_KEY, date, view, timeZone],
    queryFn: ({ signal }) =>
      calendarRequest<CalendarEventsResponse | null>("GET", eventsUrl(date, view, timeZone), undefined, {
        on401: "returnNull",
        signal,
      }),
    enabled,
    refetchInterval: enabled ? EVENTS_REFETCH_MS : false,
    // Keep the last window on screen while the next one loads, so stepping does not flash empty.
    placeholderData: (previous) => previous,
  });
}

export function useCalendarSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => calendarRequest<CalendarSyncResponse>("POST", "/api/calendar/sync"),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: EVENTS_KEY });
      await queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY });
    },
  });
}

export function useCreateCalendarEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateCalendarEventRequest) =>
      calendarRequest<{ event: CalendarEvent }>("POST", "/api/calendar/create-event", input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EVENTS_KEY }),
  });
}

export function useDisconnectCalendar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => calendarRequest<void>("DELETE", `/api/calendar/integrations/${id}`),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY });
      await queryClient.invalidateQueries({ queryKey: EVENTS_KEY });
    },
  });
}

/**
 * Spec section 7: connecting is a full browser navigation to /api/auth/{google|outlook}/calendar.
 * The authenticated call mints a one-time ticket for that URL; the session token never goes in it.
 */
export async function connectCalendar(provider: CalendarProvider, accountId: string | null): Promise<void> {
  // Without a mailbox: any account of the provider, chosen at its consent page.
  const { url } = await calendarRequest<{ url: string }>(
    "POST",
    "/api/calendar/connect",
    accountId === null ? { provider, calendarOnly: true } : { provider, accountId },
  );
  window.location.assign(url);
}

/** Where the reader remembers an invitation's answer for the session (the card shows it again). */
export const invitationAnswerKey = (emailId: string) => ["/api/emails/invitation/response", emailId] as const;

/** Yes / Maybe / No on the invitation an email carries. */
export function useAnswerInvitation(emailId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (response: InvitationAnswer) =>
      apiRequest<InvitationResponse>(
        "POST",
        `/api/emails/${encodeURIComponent(emailId)}/invitation/response`,
        {
          response,
        },
      ),
    onSuccess: async (answer) => {
      queryClient.setQueryData(invitationAnswerKey(emailId), answer);
      // An answer on a calendar changes that event there.
      if (answer.via === "calendar") await queryClient.invalidateQueries({ queryKey: EVENTS_KEY });
    },
  });
}
