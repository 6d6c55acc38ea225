/**
 * Issue 38, live inbox: with the dashboard open, mail pushed by the provider shows without a
 * reload, and an archive in one tab leaves the other tab, both through the event stream
 * (GET /api/events) merged into the cache, not by re-reading the lists.
 */
import type { Page } from "@playwright/test";
import {
  acceptCookies,
  addMessage,
  identityWithMail,
  inboxRows,
  note,
  waitForSyncedEmails,
  waitForSyncIdle,
} from "./dashboard-fixtures.ts";
import { expect, openDashboardWith, signInOverHttp, test } from "./support/auth.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

/** Counts the list reads a page makes from now on (GET /api/emails?...). */
function countListReads(page: Page): { count: () => number } {
  let n = 0;
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() === "GET" && url.pathname === "/api/emails") n++;
  });
  return { count: () => n };
}

test("mail injected at the provider shows in the open tab without a reload", async ({ page }) => {
  const me = await identityWithMail([note("Already here", 1)]);
  const events = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events");
  await signInOverHttp(page, me.email);
  await waitForSyncedEmails(page, 1);
  await waitForSyncIdle(page);
  await expect(inboxRows(page)).toHaveCount(1);
  expect((await events).status()).toBe(200);
  const reads = countListReads(page);

  await addMessage(me.email, { ...note("Pushed while you watched", 2), internalDate: Date.now() });
  // Push, sync and stream take about a second; the idle poll (60 s with the stream up) cannot.
  await expect(inboxRows(page).first()).toContainText("Pushed while you watched", { timeout: 8_000 });
  await expect(inboxRows(page)).toHaveCount(2);
  expect(reads.count()).toBe(0);
});

test("an archive in one tab disappears from the other tab", async ({ page, context }) => {
  const me = await identityWithMail([note("Archive me", 1), note("Stay", 2)]);
  const token = await signInOverHttp(page, me.email);
  await waitForSyncedEmails(page, 2);
  await waitForSyncIdle(page);
  const other = await context.newPage();
  const otherStream = other.waitForResponse((r) => new URL(r.url()).pathname === "/api/events");
  await openDashboardWith(other, token);
  await expect(inboxRows(other)).toHaveCount(2);
  expect((await otherStream).status()).toBe(200);
  const reads = countListReads(other);

  await page.bringToFront();
  // j moves the keyboard selection down the list until it is on the mail to archive.
  const current = page.locator("#inbox [aria-current='true']");
  const selected = async () =>
    ((await current.textContent({ timeout: 1_000 }).catch(() => null)) ?? "").includes("Archive me");
  for (let i = 0; i < 3 && !(await selected()); i++) await page.keyboard.press("j");
  await expect(current).toContainText("Archive me");
  await page.keyboard.press("e");
  await expect(inboxRows(page).filter({ hasText: "Archive me" })).toHaveCount(0);

  await expect(inboxRows(other).filter({ hasText: "Archive me" })).toHaveCount(0, { timeout: 8_000 });
  await expect(inboxRows(other)).toHaveCount(1);
  expect(reads.count()).toBe(0);
});

test("a dropped stream shows Reconnecting… and recovers by itself", async ({ page, context }) => {
  const me = await identityWithMail([note("Before the drop", 1)]);
  const events = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events");
  await signInOverHttp(page, me.email);
  await waitForSyncedEmails(page, 1);
  expect((await events).status()).toBe(200);
  // The network goes: the open stream breaks and reconnecting fails until it is back.
  await context.setOffline(true);
  const status = page.getByTestId("live-status");
  await expect(status).toContainText("Reconnecting…", { timeout: 10_000 });
  await addMessage(me.email, { ...note("Sent during the drop", 2), internalDate: Date.now() });
  const back = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events" && r.status() === 200);
  await context.setOffline(false);
  await back;
  await expect(status).toHaveCount(0);
  // What arrived meanwhile is there: replayed from the buffer, or read again on a gap.
  await expect(inboxRows(page).first()).toContainText("Sent during the drop", { timeout: 10_000 });
});
