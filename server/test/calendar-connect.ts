import { expect } from "vitest";
import type { CalendarProvider } from "../../contract/calendar.ts";
import { consentAtEmulator } from "./emulator-consent.ts";

/**
 * Connecting a calendar over HTTP exactly as a browser would: POST /api/calendar/connect (a
 * one-time ticket and the flow cookie), the navigation, the emulator's consent pages as `pick`,
 * and the callback. Answers where the callback sent the browser.
 */

function cookieOf(response: Response): string {
  const set = response.headers.getSetCookie().find((c) => c.startsWith("mailwise_oauth_flow="));
  if (!set) throw new Error("no flow cookie");
  return set.split(";")[0] ?? "";
}

export interface Navigation {
  status: number;
  location: string;
}

export async function navigate(url: string, cookie?: string): Promise<Navigation> {
  const response = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location") ?? "" };
}

export async function connectCalendarOverHttp(
  serverUrl: string,
  session: string,
  provider: CalendarProvider,
  options: { pick: string; hint?: string | null; accountId?: string; calendarOnly?: boolean },
): Promise<{ landing: string; ticketUrl: string; cookie: string }> {
  const response = await fetch(`${serverUrl}/api/calendar/connect`, {
    method: "POST",
    headers: { authorization: `Bearer ${session}`, "content-type": "application/json" },
    body: JSON.stringify({
      provider,
      ...(options.accountId ? { accountId: options.accountId } : {}),
      ...(options.calendarOnly ? { calendarOnly: true } : {}),
    }),
  });
  expect(response.status).toBe(200);
  const cookie = cookieOf(response);
  const { url } = (await response.json()) as { url: string };
  const start = await navigate(`${serverUrl}${url}`, cookie);
  expect(start.status).toBe(302);
  const consentUrl = new URL(start.location);
  if (options.hint !== undefined) expect(consentUrl.searchParams.get("login_hint")).toBe(options.hint);
  const back = await consentAtEmulator(start.location, options.pick);
  const done = await navigate(back.href, cookie);
  expect(done.status).toBe(302);
  return { landing: done.location, ticketUrl: url, cookie };
}
