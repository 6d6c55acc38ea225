import { acceptCookies, BUCKET_MAIL, identityWithMail, waitForSyncedEmails } from "./dashboard-fixtures.ts";
import { expect, signInOverHttp, test } from "./support/auth.ts";
import { expectNoSeriousA11yViolations } from "./support/axe.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

test("the dashboard at 360 px: no sideways scroll, full-screen panels, usable bucket dialog", async ({
  page,
}) => {
  const me = await identityWithMail([BUCKET_MAIL.personal(1), BUCKET_MAIL.personal(2), BUCKET_MAIL.work(1)]);
  await signInOverHttp(page, me.email);
  await waitForSyncedEmails(page, 3);
  await expect(page.locator("#inbox [data-email-id]")).toHaveCount(3);

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  const nav = page.getByRole("navigation", { name: "Dashboard" });
  for (const name of ["Dashboard", "Search", "Buckets", "Analytics", "Calendar", "Sync", "Settings"])
    await expect(nav.getByRole("button", { name, exact: true })).toBeVisible();

  await nav.getByRole("button", { name: "Buckets", exact: true }).click();
  const panel = page.getByRole("dialog", { name: "Email Buckets" });
  const box = await panel.boundingBox();
  expect(box?.width).toBe(360);
  expect(box?.x).toBe(0);
  await panel.getByRole("button", { name: "Close Email Buckets" }).click();

  await page.locator('section[data-bucket="personal"]').getByRole("button", { name: "View All (2)" }).click();
  const dialog = page.getByRole("dialog", { name: "Personal Emails" });
  await expect(dialog.getByTestId("bucket-counts")).toHaveText("2 emails · 2 unread");
  expect((await dialog.boundingBox())?.width).toBe(360);
  await expectNoSeriousA11yViolations(page, "bucket dialog on a phone");
});
