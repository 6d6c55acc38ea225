import type { FastifyInstance } from "fastify";
import { registerCalendarAdminRoutes } from "./admin.ts";
import { registerGoogleCalendarApi } from "./google-api.ts";
import { registerGraphCalendarApi } from "./graph-api.ts";
import type { CalendarServices } from "./services.ts";

/** Google Calendar v3 and Graph calendar, plus /_admin/calendars* when admin is on. */
export function registerCalendarServices(
  app: FastifyInstance,
  services: CalendarServices,
  admin: boolean,
): void {
  registerGoogleCalendarApi(app, services);
  registerGraphCalendarApi(app, services);
  if (admin) registerCalendarAdminRoutes(app, services);
}
