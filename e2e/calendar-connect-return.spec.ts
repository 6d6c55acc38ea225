import { CALENDAR_CONNECT_FAILURES } from "../contract/calendar-connect.ts";
import { acceptCookies } from "./dashboard-fixtures.ts";
import {
  createIdentity,
  expect,
  sessionOverHttp,
  type TestIdentity,
  test,
  toastWith,
} from "./support/auth.ts";

/*
 * Issue 34.2: the link back from the calendar connect flow carries a code, and the dashboard shows
 * that code's fixed text. Text put in the link by anyone else never reaches the page.
 */

test.beforeEach(async ({ page }) => acceptCookies(page));

async function arrive(page: import("@playwright/test").Page, me: TestIdentity, query: string) {
  const token = await sessionOverHttp(page, me.email);
  await page.goto("/favicon.svg");
  await page.evaluate((t) => localStorage.setItem("sessionToken", t), token);
  await page.goto(`/dashboard?${query}`);
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible({ timeout: 15_000 });
}

test("a message in the link is never shown: the toast says the fixed text", async ({ page }) => {
  const me = await createIdentity("gmail");
  await arrive(page, me, "calendar=error&provider=google&message=Evil%20text%3A%20call%20%2B1-555-0100");
  const toast = toastWith(page, "Calendar not connected");
  await expect(toast).toBeVisible();
  await expect(toast).toContainText(CALENDAR_CONNECT_FAILURES.failed);
  await expect(page.getByText("Evil", { exact: false })).toHaveCount(0);
  // The parameters are gone from the address, so a reload says nothing again.
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a known code shows its own text; an unknown code the general one", async ({ page }) => {
  const me = await createIdentity("gmail");
  await arrive(page, me, "calendar=error&provider=google&code=other_account&message=Evil");
  const toast = toastWith(page, "Calendar not connected");
  await expect(toast).toContainText(CALENDAR_CONNECT_FAILURES.other_account);
  await expect(page.getByText("Evil", { exact: false })).toHaveCount(0);

  await page.goto("/dashboard?calendar=error&code=Evil%20code");
  await expect(toastWith(page, "Calendar not connected")).toContainText(CALENDAR_CONNECT_FAILURES.failed);
  await expect(page.getByText("Evil", { exact: false })).toHaveCount(0);
});
