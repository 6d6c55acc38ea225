import type { EmulatorContext } from "../context.ts";
import { GmailQuota, type GmailQuotaSettings } from "../faults/quota.ts";
import type { Identity } from "../identities.ts";
import type { MailServices } from "../mailbox/services.ts";
import { CalendarRegistry, type CalendarRegistryOptions } from "./registry.ts";
import { applyReplyMail, planDemoMeeting } from "./scheduling.ts";
import type { CalendarStore } from "./store.ts";

export interface CalendarServiceOptions extends CalendarRegistryOptions {
  /**
   * Google Calendar's per-user rate limit. Google publishes it per project in the console; 600
   * queries a minute per user is the usual default.
   */
  googleQuota?: Partial<GmailQuotaSettings>;
  /** How long a sync token stays valid (default 7 days of emulator clock). */
  syncTokenTtlMs?: number;
}

/**
 * Google Calendar and Graph calendar share the mail services' faults and Outlook's per-mailbox
 * throttle (Graph counts calendar and mail requests against the same mailbox), and have their own
 * per-user Google quota.
 */
export interface CalendarServices {
  readonly context: EmulatorContext;
  readonly calendars: CalendarRegistry;
  readonly googleQuota: GmailQuota;
  readonly mail: MailServices;
  readonly syncTokenTtlMs: number;
  storeOf(identity: Identity): CalendarStore;
}

export function createCalendarServices(
  context: EmulatorContext,
  mail: MailServices,
  options: CalendarServiceOptions = {},
): CalendarServices {
  const calendars = new CalendarRegistry(context.clock, options);
  const services: CalendarServices = {
    context,
    calendars,
    googleQuota: new GmailQuota(context.clock, {
      unitsPerMinute: options.googleQuota?.unitsPerMinute ?? 600,
      enabled: options.googleQuota?.enabled ?? true,
    }),
    mail,
    syncTokenTtlMs: options.syncTokenTtlMs ?? 7 * 24 * 60 * 60 * 1000,
    storeOf: (identity) => calendars.get(identity),
  };
  // iMIP replies sent as mail (by an app without a calendar) reach the organizer's calendar.
  mail.deliveryListeners.add((recipient, raw) => applyReplyMail(services, recipient, raw));
  // The demo invitation's meeting lives in its organizer's calendar, so answers to it land there.
  mail.demoMeetings.planner = (meeting) => planDemoMeeting(services, meeting);
  return services;
}
