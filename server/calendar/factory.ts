import type { CalendarProvider } from "../../contract/calendar.ts";
import type { AccountTokenService } from "../auth/account-tokens.ts";
import type { Config } from "../config.ts";
import { createProviderHttp } from "../providers/http/client.ts";
import type { RetrySettings } from "../providers/http/retry.ts";
import { classifyGraphError } from "../providers/outlook/errors.ts";
import { classifyGoogleCalendarError, createGoogleCalendarClient } from "./google-adapter.ts";
import { createOutlookCalendarClient } from "./outlook-adapter.ts";
import type { CalendarProviderClient } from "./provider.ts";

/** The integration fields a client needs; never its token columns (the token service reads those). */
export interface CalendarClientTarget {
  id: string;
  userId: string;
  provider: CalendarProvider | string;
}

export type CalendarClientFactory = (integration: CalendarClientTarget) => CalendarProviderClient;

/**
 * Builds the adapter of one connected calendar over the shared provider HTTP client (bearer
 * token, timeout, one forced refresh on 401, retries by failure kind).
 */
export function calendarClientFactory(deps: {
  config: Pick<Config, "providers">;
  tokens: Pick<AccountTokenService, "getAccessToken">;
  tuning?: { timeoutMs?: number; retry?: Partial<RetrySettings> };
}): CalendarClientFactory {
  return (integration) => {
    const token = (options?: { forceRefresh?: boolean }) =>
      deps.tokens.getAccessToken(integration.userId, integration.id, options);
    const common = { token, ...(deps.tuning ?? {}) };
    switch (integration.provider) {
      case "google":
        return createGoogleCalendarClient(
          createProviderHttp({ ...common, name: "Google Calendar", classify: classifyGoogleCalendarError }),
          deps.config.providers.googleApis,
        );
      case "outlook":
        return createOutlookCalendarClient(
          createProviderHttp({ ...common, name: "Graph calendar", classify: classifyGraphError }),
          deps.config.providers.graph,
        );
      default:
        throw new RangeError(`unknown calendar provider: ${integration.provider}`);
    }
  };
}
