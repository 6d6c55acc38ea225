import { z } from "zod";

/** Spec section 3: a calendar integration's provider is google or outlook. */
export const calendarProviderSchema = z.enum(["google", "outlook"]);
export type CalendarProvider = z.infer<typeof calendarProviderSchema>;

export const calendarViewSchema = z.enum(["day", "week", "month"]);
export type CalendarView = z.infer<typeof calendarViewSchema>;

export const calendarEventStatusSchema = z.enum(["confirmed", "tentative", "cancelled"]);
export type CalendarEventStatus = z.infer<typeof calendarEventStatusSchema>;

/**
 * One entry of GET /api/calendar/integrations: the spec's provider, isConnected and email, one per
 * connected mail account (its calendar connected or not) and one per calendar connected without a
 * mailbox, plus what the screen needs to connect, disconnect and show sync trouble.
 */
export const calendarIntegrationSchema = z.object({
  provider: calendarProviderSchema,
  isConnected: z.boolean(),
  email: z.string(),
  /** The mail account this calendar belongs to; null for a calendar connected without one. */
  accountId: z.string().nullable(),
  /** Set while connected. */
  id: z.string().nullable(),
  status: z.enum(["active", "reauth_required"]).nullable(),
  calendarName: z.string().nullable(),
  lastSyncedAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type CalendarIntegration = z.infer<typeof calendarIntegrationSchema>;
export const calendarIntegrationsResponseSchema = z.array(calendarIntegrationSchema);

export const calendarAttendeeSchema = z.object({
  email: z.string(),
  name: z.string().nullable(),
  responseStatus: z.enum(["accepted", "declined", "tentative", "needsAction"]),
});
export type CalendarAttendee = z.infer<typeof calendarAttendeeSchema>;

/**
 * Spec section 3's calendar event. Timed events carry instants (ISO with Z); all-day events carry
 * dates (YYYY-MM-DD, end exclusive, as both providers store them), with allDay true.
 */
export const calendarEventSchema = z.object({
  id: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  allDay: z.boolean(),
  /** The zone the event was planned in (for "10:00 Tokyo time"); null for all-day events. */
  timeZone: z.string().nullable(),
  location: z.string().nullable(),
  attendees: z.array(calendarAttendeeSchema),
  organizer: z.string().nullable(),
  status: calendarEventStatusSchema,
  provider: calendarProviderSchema,
  /** Which connected calendar it is on (the account's address). */
  calendarEmail: z.string(),
  integrationId: z.string(),
  recurring: z.boolean(),
  htmlLink: z.string().nullable(),
});
export type CalendarEvent = z.infer<typeof calendarEventSchema>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** GET /api/calendar/events query: the window is computed in `tz` (UTC when absent). */
export const calendarEventsQuerySchema = z.object({
  date: z.string().regex(ISO_DATE, "date must be YYYY-MM-DD"),
  view: calendarViewSchema,
  tz: z.string().min(1).max(64).optional(),
});
export type CalendarEventsQuery = z.infer<typeof calendarEventsQuerySchema>;

export const calendarEventsResponseSchema = z.object({
  events: z.array(calendarEventSchema),
  /** The window the events were picked for, as instants, and the zone it was computed in. */
  window: z.object({ start: z.string(), end: z.string(), timeZone: z.string() }),
});
export type CalendarEventsResponse = z.infer<typeof calendarEventsResponseSchema>;

/**
 * POST /api/calendar/create-event. Timed events give wall times (YYYY-MM-DDTHH:mm) in `timeZone`;
 * all-day events give dates, end exclusive.
 */
export const createCalendarEventSchema = z.object({
  integrationId: z.string().uuid("Choose a connected calendar"),
  title: z.string().trim().min(1, "Title is required").max(500, "Title is too long"),
  allDay: z.boolean().default(false),
  start: z.string().min(1, "Start is required"),
  end: z.string().min(1, "End is required"),
  timeZone: z.string().min(1).max(64).default("UTC"),
  location: z.string().trim().max(500, "Location is too long").optional(),
  description: z.string().max(8000, "Description is too long").optional(),
  attendees: z
    .array(z.string().trim().email("Attendees must be email addresses"))
    .max(50, "At most 50 attendees")
    .default([]),
});
export type CreateCalendarEventRequest = z.input<typeof createCalendarEventSchema>;

export const createCalendarEventResponseSchema = z.object({ event: calendarEventSchema });

/** POST /api/calendar/sync: what each connected calendar did. */
export const calendarSyncResponseSchema = z.object({
  integrations: z.array(
    z.object({
      id: z.string(),
      provider: calendarProviderSchema,
      email: z.string(),
      ok: z.boolean(),
      fullResync: z.boolean(),
      changed: z.number().int(),
      error: z.string().nullable(),
    }),
  ),
});
export type CalendarSyncResponse = z.infer<typeof calendarSyncResponseSchema>;

/** POST /api/calendar/connect: where to navigate to connect a calendar (a one-time ticket, never the session). */
export const calendarConnectRequestSchema = z.object({
  provider: calendarProviderSchema,
  /** The mail account whose calendar to connect; the first of that provider when absent. */
  accountId: z.string().uuid().optional(),
  /**
   * Any account of the provider, chosen at its consent page, mailbox or not (a Gmail-only person
   * connecting an Outlook calendar). Also what happens when no mailbox of the provider is linked.
   */
  calendarOnly: z.boolean().optional(),
});
export const calendarConnectResponseSchema = z.object({ url: z.string() });

/** Someone named in an invitation: the address, and the name the sender gave (if any). */
export const invitationPersonSchema = z.object({ email: z.string(), name: z.string().nullable() });
export type InvitationPerson = z.infer<typeof invitationPersonSchema>;

/**
 * An invitation carried by an email (a text/calendar part or an .ics attachment), as the reader
 * shows it. Times as calendar events carry them: instants for timed events, dates (end exclusive)
 * for all-day ones. Every text is plain text, cleaned and cut by the server.
 */
export const invitationSchema = z.object({
  uid: z.string().nullable(),
  /** The iTIP method: REQUEST (an invitation), CANCEL, PUBLISH, ...; null when absent. */
  method: z.string().nullable(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  allDay: z.boolean(),
  /** The IANA zone the event was planned in, when the invitation names one. */
  timeZone: z.string().nullable(),
  location: z.string().nullable(),
  description: z.string().nullable(),
  organizer: invitationPersonSchema.nullable(),
  attendees: z.array(invitationPersonSchema),
  recurring: z.boolean(),
  /**
   * RECURRENCE-ID: the one occurrence of a series this invitation is about, by its original start
   * (an instant, or a date for all-day series); null for a single event or a whole series.
   */
  occurrence: z.string().nullable(),
  status: calendarEventStatusSchema,
  /** iCalendar SEQUENCE: an answer names the version of the event it answers. */
  sequence: z.number().int().min(0),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** An answer to an invitation: Yes, Maybe or No (iCalendar PARTSTAT ACCEPTED, TENTATIVE, DECLINED). */
export const invitationAnswerSchema = z.enum(["accepted", "tentative", "declined"]);
export type InvitationAnswer = z.infer<typeof invitationAnswerSchema>;

/** POST /api/emails/:id/invitation/response */
export const invitationResponseRequestSchema = z.object({ response: invitationAnswerSchema });
export type InvitationResponseRequest = z.infer<typeof invitationResponseRequestSchema>;

/**
 * How the answer went: on a connected calendar that holds the event (the provider tells the
 * organizer), or, with none, as an iMIP reply mailed to the organizer from the mailbox.
 */
export const invitationResponseSchema = z.object({
  response: invitationAnswerSchema,
  via: z.enum(["calendar", "email"]),
  /** The calendar answered on, or the mailbox the reply went from. */
  from: z.string(),
  organizer: z.string(),
});
export type InvitationResponse = z.infer<typeof invitationResponseSchema>;

/**
 * GET /api/emails/:id/invitation?tz=Area/City: the email's invitation, or null, and the person's
 * last answer to it from here (null before any), so the card shows it after a reload.
 */
export const emailInvitationQuerySchema = z.object({ tz: z.string().min(1).max(64).optional() });
export const emailInvitationResponseSchema = z.object({
  invitation: invitationSchema.nullable(),
  answer: invitationResponseSchema.nullable(),
});
export type EmailInvitationResponse = z.infer<typeof emailInvitationResponseSchema>;
