import type { Page } from "@playwright/test";
import { Temporal } from "temporal-polyfill";
import { acceptCookies } from "./dashboard-fixtures.ts";
import { expect, test } from "./support/auth.ts";
import { expectNoSeriousA11yViolations } from "./support/axe.ts";
import {
  connectCalendarOverHttp,
  eventChip,
  goToDate,
  openCalendarPanel,
  calendarPanel as panel,
  seededPerson,
  signInOverHttp,
  waitForServerEvents,
} from "./support/calendar.ts";
import { showCalendarView } from "./support/calendar-view.ts";
import { mode, remaining, startInboxZero, topCard, touchSwipe } from "./support/inbox-zero.ts";
import { labelsOf, signedInWithMail } from "./support/reader-mail.ts";

// The phone project: a 360 px wide touch screen (Pixel 7 emulation).
const ZONE = "America/New_York";
test.use({ timezoneId: ZONE, locale: "en-US" });
test.beforeEach(async ({ page }) => acceptCookies(page));

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * Every element matching `selector` is on the 360 px screen, or inside a sideways-scrolling box
 * that is itself on the screen (the week grid keeps readable 5.5rem columns and scrolls).
 */
async function fitsTheScreen(page: Page, selector: string) {
  const unreachable = await page.evaluate((sel) => {
    const width = window.innerWidth;
    const onScreen = (r: DOMRect) => r.left >= -0.5 && r.right <= width + 0.5;
    const inScroller = (el: HTMLElement) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const x = getComputedStyle(p).overflowX;
        if ((x === "auto" || x === "scroll") && p.scrollWidth > p.clientWidth)
          return onScreen(p.getBoundingClientRect());
      }
      return false;
    };
    return [...document.querySelectorAll<HTMLElement>(sel)]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && !onScreen(r) && !inScroller(el);
      })
      .map((el) => {
        const r = el.getBoundingClientRect();
        const name = el.getAttribute("aria-label") ?? el.textContent ?? "";
        return `${name.trim().slice(0, 40)} [${Math.round(r.left)}, ${Math.round(r.right)}]`;
      });
  }, selector);
  expect(unreachable, `${selector} off the screen and not in a scrolling box`).toEqual([]);
}

test("the calendar on a 360 px phone: full-width panel, every view usable, day events tappable", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const me = await seededPerson("gmail", ZONE);
  await signInOverHttp(page, me);
  await connectCalendarOverHttp(page, me.email, "google");
  // A Wednesday from today: the seeded standup repeats on weekdays.
  const today = Temporal.Now.plainDateISO(ZONE);
  const wednesday = today.add({ days: (3 - today.dayOfWeek + 7) % 7 }).toString();
  await waitForServerEvents(page, wednesday, ZONE, "Team standup");

  await openCalendarPanel(page);
  const box = await page.getByRole("dialog", { name: "Calendar" }).boundingBox();
  expect(box?.x).toBe(0);
  expect(box?.width).toBe(360);
  await noSidewaysScroll(page);
  await goToDate(page, wednesday);

  for (const name of ["Day", "Week", "Month"] as const) {
    await showCalendarView(page, name);
    await expect(eventChip(page, "Team standup").first()).toBeVisible();
    await noSidewaysScroll(page);
    await fitsTheScreen(page, '[data-testid="calendar-panel"] button');
  }
  // A tap on an event in the day view opens its details.
  await panel(page).getByRole("button", { name: "Day", exact: true }).click();
  await eventChip(page, "Team standup").first().tap();
  await expect(page.getByRole("dialog").filter({ hasText: "Team standup" }).last()).toBeVisible();
  await expectNoSeriousA11yViolations(page, "calendar on a phone");
});

test("Inbox Zero mode on a 360 px phone: the card fits, a finger swipe archives on the provider", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const { identity, delivered } = await signedInWithMail(page, [
    { from: { name: "Ana", address: "ana@example.org" }, subject: "First on the phone", text: "One." },
    { from: { name: "Ben", address: "ben@example.org" }, subject: "Second on the phone", text: "Two." },
  ]);
  await startInboxZero(page);
  await expect(remaining(page)).toHaveText("2 emails to go");
  const card = await topCard(page).boundingBox();
  expect(card).not.toBeNull();
  expect((card?.x ?? -1) >= 0 && (card?.x ?? 0) + (card?.width ?? 999) <= 360).toBe(true);
  await noSidewaysScroll(page);
  await fitsTheScreen(page, '[role="dialog"][aria-label="Inbox Zero Mode"] button');

  await expect(topCard(page)).toContainText("Second on the phone");
  await touchSwipe(page, 150, 4);
  await expect(remaining(page)).toHaveText("1 email to go");
  const providerId = delivered.get("Second on the phone")?.id ?? "";
  await expect.poll(() => labelsOf(identity, providerId)).not.toContain("INBOX");
  await expect(mode(page)).toBeVisible();
  await expectNoSeriousA11yViolations(page, "Inbox Zero mode on a phone");
});

test("Privacy & Data Controls, Achievements and the Leaderboard on a 360 px phone: full width, reachable, accessible", async ({
  page,
}) => {
  await signedInWithMail(page, [
    { from: { name: "Ana", address: "ana@example.org" }, subject: "Phone privacy", text: "One." },
  ]);
  for (const [button, title] of [
    ["Privacy Settings", "Privacy & Data Controls"],
    ["Achievements", "Achievement Badges"],
    ["Leaderboard", "Leaderboard Rankings"],
  ] as const) {
    await page.getByRole("button", { name: button, exact: true }).first().click();
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(360);
    await noSidewaysScroll(page);
    await fitsTheScreen(page, '[role="dialog"] button');
    await expectNoSeriousA11yViolations(page, `${title} on a phone`, { include: '[role="dialog"]' });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
  // The deletion buttons are reachable by scrolling the panel and name what will be lost.
  await page.getByRole("button", { name: "Privacy Settings", exact: true }).first().click();
  const privacy = page.getByRole("dialog", { name: "Privacy & Data Controls" });
  await privacy.getByRole("button", { name: "Delete Now" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toBeVisible();
  const confirmBox = await confirm.boundingBox();
  expect((confirmBox?.x ?? 0) + (confirmBox?.width ?? 999)).toBeLessThanOrEqual(360);
  await expect(confirm).toContainText(/email/i);
});
