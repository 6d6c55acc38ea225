/**
 * Calendar fixtures for the browser tests: a fresh person with the demo calendar seeding, the
 * Calendar panel, connecting a calendar (through the consent pages in the browser, or over HTTP
 * for tests about something else), and waiting for the server to hold the seeded events.
 */
import { expect, type Page } from "@playwright/test";
import { consentAtEmulator } from "../../server/test/emulator-consent.ts";
import { createIdentity, EMULATOR_URL, type MailProvider, storedToken, type TestIdentity } from "./auth.ts";

export type CalendarProviderName = "Google" | "Outlook";

/** A fresh person whose calendar holds the demo seeding (standups, all-day, overlaps...). */
export async function seededPerson(provider: MailProvider, zone: string): Promise<TestIdentity> {
  const person = await createIdentity(provider, provider === "gmail" ? "Robin" : "Kai");
  const res = await fetch(`${EMULATOR_URL}/_admin/calendars/${person.email}/seed`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ timeZone: zone }),
  });
  expect(res.status).toBe(201);
  return person;
}

export function calendarPanel(page: Page) {
  return page.getByTestId("calendar-panel");
}

export async function openCalendarPanel(page: Page) {
  await page
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("button", { name: "Calendar", exact: true })
    .click();
  await expect(calendarPanel(page)).toBeVisible();
}

/** Opens the Calendar panel and connects the calendar through the emulator's consent pages. */
export async function connectCalendarInBrowser(page: Page, email: string, provider: CalendarProviderName) {
  await openCalendarPanel(page);
  await calendarPanel(page)
    .getByRole("button", { name: `Connect ${provider} Calendar (${email})` })
    .click();
  // A full-page navigation to the provider, asking calendar access only.
  await expect(page).toHaveURL(/accounts\.google\.com|login\.microsoftonline\.com/);
  expect(page.url()).not.toContain("sessionToken");
  await page.getByRole("button", { name: email }).click();
  await page.getByRole("button", { name: "Allow", exact: true }).click();
  // Back on the dashboard, which says how it went (and then drops the query from the address).
  await expect(page.getByText("Calendar connected").first()).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(calendarPanel(page)).toBeVisible();
}

function flowCookie(response: Response): string {
  const set = response.headers.getSetCookie().find((c) => c.startsWith("mailwise_oauth_flow="));
  if (!set) throw new Error("no flow cookie");
  return set.split(";")[0] ?? "";
}

/**
 * Connects the signed-in person's calendar over HTTP, as the browser would (ticket, flow cookie,
 * consent, callback), for tests whose subject is not the connecting itself.
 */
export async function connectCalendarOverHttp(
  page: Page,
  email: string,
  provider: "google" | "outlook",
): Promise<void> {
  const base = new URL(page.url()).origin;
  const token = await storedToken(page);
  const minted = await fetch(`${base}/api/calendar/connect`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ provider }),
  });
  expect(minted.status).toBe(200);
  const cookie = flowCookie(minted);
  const { url } = (await minted.json()) as { url: string };
  const start = await fetch(`${base}${url}`, { headers: { cookie }, redirect: "manual" });
  expect(start.status).toBe(302);
  const back = await consentAtEmulator(start.headers.get("location") ?? "", email);
  const done = await fetch(back.href, { headers: { cookie }, redirect: "manual" });
  expect(done.headers.get("location")).toBe(`/dashboard?calendar=connected&provider=${provider}`);
}

/**
 * Waits until the server answers the week around `date` with `title` in it, asking again while
 * it does not (the first pass runs in the background after connecting).
 */
export async function waitForServerEvents(page: Page, date: string, zone: string, title: string) {
  const base = new URL(page.url()).origin;
  const token = await storedToken(page);
  await expect
    .poll(
      async () => {
        const res = await fetch(
          `${base}/api/calendar/events?${new URLSearchParams({ date, view: "week", tz: zone })}`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        if (!res.ok) return false;
        const body = (await res.json()) as { events: { title: string }[] };
        return body.events.some((e) => e.title === title);
      },
      { message: `the server's events include ${title}`, timeout: 20_000 },
    )
    .toBe(true);
}

export async function goToDate(page: Page, date: string) {
  await calendarPanel(page).getByLabel("Go to date").fill(date);
}

/** An event chip by the start of its accessible name (title first). */
export function eventChip(page: Page, title: string) {
  return calendarPanel(page).getByRole("button", { name: new RegExp(`^${title}`) });
}

/**
 * Signs in over HTTP (start, the emulator's consent pages, the callback) and hands the session
 * to the page, for specs about the calendar: the popup sign-in has its own specs, and skipping
 * it keeps these within their time on a busy machine.
 */
export async function signInOverHttp(page: Page, identity: TestIdentity): Promise<void> {
  const base = `http://127.0.0.1:${process.env.E2E_PORT ?? "4180"}`;
  const started = await fetch(`${base}/api/auth/${identity.provider}`);
  expect(started.status).toBe(200);
  const cookie = flowCookie(started);
  const { authUrl } = (await started.json()) as { authUrl: string };
  const back = await consentAtEmulator(authUrl, identity.email);
  const answer = await fetch(`${base}/api/auth/${identity.provider}/callback?${back.searchParams}`, {
    headers: { cookie, accept: "application/json" },
  });
  expect(answer.status).toBe(200);
  const { sessionToken } = (await answer.json()) as { sessionToken: string };
  // The token is in place before the app's first script runs: one page load, straight to the dashboard.
  await page.addInitScript((token) => {
    if (!localStorage.getItem("sessionToken")) localStorage.setItem("sessionToken", token);
  }, sessionToken);
  await page.goto("/dashboard");
  // The dashboard's first load fetches its bundle and the session: wait on what it shows.
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible({ timeout: 15_000 });
}
