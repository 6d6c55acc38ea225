import { Temporal } from "temporal-polyfill";
import { acceptCookies } from "./dashboard-fixtures.ts";
import { EMULATOR_URL, expect, test } from "./support/auth.ts";
import { expectNoSeriousA11yViolations } from "./support/axe.ts";
import {
  connectCalendarInBrowser,
  connectCalendarOverHttp,
  eventChip as event,
  goToDate as goTo,
  openCalendarPanel,
  calendarPanel as panel,
  seededPerson,
  signInOverHttp,
  waitForServerEvents,
} from "./support/calendar.ts";
import { showCalendarView as view } from "./support/calendar-view.ts";

/*
 * Each test does one thing, so that each fits the global 30 s under load: the two connect tests go
 * through the consent pages in the browser, the others connect over HTTP. Every wait is on a
 * condition (the server holding the events, a chip, a title), never on a longer timeout.
 */

const ZONE = "America/New_York";
test.use({ timezoneId: ZONE, locale: "en-US" });
test.beforeEach(async ({ page }) => acceptCookies(page));

const today = () => Temporal.Now.plainDateISO(ZONE);

test("Google: connect through consent, then seeded events by week, day and month", async ({ page }) => {
  // Consent in a popup, three views and an accessibility scan: about 30 s on two shared cores.
  test.setTimeout(60_000);
  const me = await seededPerson("gmail", ZONE);
  await signInOverHttp(page, me);
  await connectCalendarInBrowser(page, me.email, "Google");

  // Week view: the daily standup, with its cancelled occurrence struck through.
  await view(page, "Week");
  await expect(event(page, "Team standup").first()).toBeVisible();
  await expect(panel(page).locator('[data-status="cancelled"]').first()).toBeAttached();

  // Day view, tomorrow: 24 hourly rows, the current-time line today, and the two overlapping
  // meetings side by side.
  await view(page, "Day");
  await expect(panel(page).getByTestId("hour-row")).toHaveCount(24);
  await expect(panel(page).getByTestId("now-line")).toBeAttached();
  await panel(page).getByRole("button", { name: "Next day" }).click();
  const design = panel(page).locator("li", { has: page.getByRole("button", { name: /^Design sync/ }) });
  const budget = panel(page).locator("li", { has: page.getByRole("button", { name: /^Budget review/ }) });
  await expect(design).toHaveAttribute("data-columns", "2");
  await expect(budget).toHaveAttribute("data-columns", "2");
  await expect(design).not.toHaveAttribute("data-column", (await budget.getAttribute("data-column")) ?? "");

  // Month view shows the month's standups; Today comes back.
  await view(page, "Month");
  await panel(page).getByRole("button", { name: "Today", exact: true }).click();
  await expect(panel(page).getByRole("table")).toBeVisible();
  await expect(event(page, "Team standup").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, "calendar month view");
});

test("Outlook: connect through consent, then seeded events by day, week (all-day row) and month", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const me = await seededPerson("outlook", ZONE);
  await signInOverHttp(page, me);
  await connectCalendarInBrowser(page, me.email, "Outlook");

  await view(page, "Day");
  await panel(page).getByRole("button", { name: "Next day" }).click();
  await event(page, "Design sync").click();
  const details = page.getByRole("dialog", { name: "Design sync" });
  await expect(details).toContainText(`Outlook Calendar (${me.email})`);
  await details.getByRole("button", { name: "Close" }).first().click();
  await expect(details).toBeHidden();

  // The offsite is an all-day event ten days after this Monday: in the week's all-day row.
  const offsite = today()
    .subtract({ days: today().dayOfWeek - 1 })
    .add({ days: 10 });
  await view(page, "Week");
  await goTo(page, offsite.toString());
  await expect(
    panel(page)
      .getByTestId("all-day-row")
      .getByRole("button", { name: /^Company offsite/ })
      .first(),
  ).toBeVisible();

  await view(page, "Month");
  await panel(page).getByRole("button", { name: "Today", exact: true }).click();
  await expect(event(page, "Team standup").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, "calendar week view with an all-day row");
});

test("adding an event with the keyboard puts it on the provider's calendar", async ({ page }) => {
  const me = await seededPerson("gmail", ZONE);
  await signInOverHttp(page, me);
  await connectCalendarOverHttp(page, me.email, "google");
  await openCalendarPanel(page);
  await view(page, "Day");

  const add = panel(page).getByRole("button", { name: "Add event" });
  await expect(add).toBeEnabled();
  await add.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Add event" });
  // Focus starts on the first field (which calendar); Tab moves on to the title.
  await expect(dialog.getByLabel("Calendar", { exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Title")).toBeFocused();
  await page.keyboard.type("Planning with Priya");
  await dialog.getByLabel("Guests (optional, email addresses)").fill("priya.shah@gmail.com");
  const day = today().toString();
  await dialog.getByLabel("Ends").fill(`${day}T00:00`);
  await dialog.getByLabel("Ends").press("Enter");
  await expect(dialog.getByText("End must be after start")).toBeVisible();
  await dialog.getByLabel("Starts").fill(`${day}T16:00`);
  await dialog.getByLabel("Ends").fill(`${day}T16:45`);
  await dialog.getByLabel("Ends").press("Enter");
  await expect(dialog).toBeHidden();
  await expect(event(page, "Planning with Priya")).toBeVisible();

  const stored = (await (await fetch(`${EMULATOR_URL}/_admin/calendars/${me.email}`)).json()) as {
    events: {
      summary: string;
      start: { local?: string; timeZone?: string };
      attendees: { email: string }[];
    }[];
  };
  const created = stored.events.find((e) => e.summary === "Planning with Priya");
  expect(created?.start).toMatchObject({ local: `${day}T16:00:00`, timeZone: ZONE });
  expect(created?.attendees.map((a) => a.email)).toContain("priya.shah@gmail.com");

  // The event opens from the keyboard, and Escape closes its details.
  await event(page, "Planning with Priya").focus();
  await page.keyboard.press("Enter");
  const details = page.getByRole("dialog", { name: "Planning with Priya" });
  await expect(details).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(details).toBeHidden();
  await expectNoSeriousA11yViolations(page, "calendar day view");
});

test("stepping across a month boundary and a daylight-saving change", async ({ page }) => {
  const me = await seededPerson("outlook", ZONE);
  await signInOverHttp(page, me);
  await connectCalendarOverHttp(page, me.email, "outlook");
  await waitForServerEvents(page, today().toString(), ZONE, "Team standup");
  await openCalendarPanel(page);

  // Month: next and previous step one month; the title follows.
  const title = panel(page).getByTestId("calendar-title");
  const monthName = (d: Temporal.PlainDate) =>
    new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(
      new Date(`${d.toString()}T12:00:00Z`),
    );
  await view(page, "Month");
  await expect(title).toHaveText(monthName(today()));
  await panel(page).getByRole("button", { name: "Next month" }).click();
  await expect(title).toHaveText(monthName(today().add({ months: 1 })));
  await panel(page).getByRole("button", { name: "Previous month" }).click();
  await panel(page).getByRole("button", { name: "Previous month" }).click();
  await expect(title).toHaveText(monthName(today().subtract({ months: 1 })));

  // A week that straddles the end of this month: 7 days, then the next week starts on a Monday.
  const lastDay = today().with({ day: today().daysInMonth });
  await view(page, "Week");
  await goTo(page, lastDay.toString());
  await expect(panel(page).locator("section[data-date]")).toHaveCount(7);
  const nextMonday = lastDay.subtract({ days: lastDay.dayOfWeek - 1 }).add({ days: 7 });
  await panel(page).getByRole("button", { name: "Next week" }).click();
  await expect(panel(page).locator("section[data-date]").first()).toHaveAttribute(
    "data-date",
    nextMonday.toString(),
  );

  // The next change of New York's clocks (always on a Sunday): the 09:30 standup stays on the
  // 09:30 line in the week before and the week after.
  let change = today();
  const offsetOf = (d: Temporal.PlainDate) => d.toZonedDateTime({ timeZone: ZONE }).offsetNanoseconds;
  while (offsetOf(change.add({ days: 1 })) === offsetOf(change)) change = change.add({ days: 1 });
  const standupTops = async (monday: Temporal.PlainDate) => {
    await expect(panel(page).locator("section[data-date]").first()).toHaveAttribute(
      "data-date",
      monday.toString(),
    );
    const items = panel(page).locator("li", { has: page.getByRole("button", { name: /^Team standup/ }) });
    // Weekdays hold the standup (one may be cancelled or moved, still on the grid).
    await expect.poll(() => items.count()).toBeGreaterThanOrEqual(4);
    return items.evaluateAll((list) => list.map((item) => (item as HTMLElement).style.top));
  };
  await goTo(page, change.toString());
  const before = await standupTops(change.subtract({ days: change.dayOfWeek - 1 }));
  await panel(page).getByRole("button", { name: "Next week" }).click();
  const after = await standupTops(change.add({ days: 1 }));
  expect(new Set([...before, ...after])).toEqual(new Set([`${9.5 * 48}px`]));
  await expectNoSeriousA11yViolations(page, "calendar week across a DST change");
});

test("a Gmail-only person connects an Outlook calendar: both providers are offered", async ({ page }) => {
  test.setTimeout(60_000);
  const me = await seededPerson("gmail", ZONE);
  // The Outlook calendar belongs to an account that is no mailbox here, with the demo seeding.
  const work = await seededPerson("outlook", ZONE);
  await signInOverHttp(page, me);
  await openCalendarPanel(page);
  await expect(
    panel(page).getByRole("button", { name: "Connect Google Calendar", exact: true }),
  ).toBeVisible();
  await panel(page).getByRole("button", { name: "Connect Outlook Calendar", exact: true }).click();
  await expect(page).toHaveURL(/login\.microsoftonline\.com/);
  await page.getByRole("button", { name: work.email }).click();
  await page.getByRole("button", { name: "Allow", exact: true }).click();
  await expect(page.getByText("Calendar connected").first()).toBeVisible();
  await expect(panel(page)).toBeVisible();
  // Listed with its own address, connected, beside the Gmail mailbox's calendar (not connected).
  await expect(
    panel(page).getByRole("button", { name: `Disconnect Outlook Calendar (${work.email})` }),
  ).toBeVisible();
  await expect(
    panel(page).getByRole("button", { name: `Connect Google Calendar (${me.email})` }),
  ).toBeVisible();
  await waitForServerEvents(page, today().toString(), ZONE, "Team standup");
  await view(page, "Week");
  await expect(event(page, "Team standup").first()).toBeVisible();
});
