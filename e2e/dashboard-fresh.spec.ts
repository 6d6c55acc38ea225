/**
 * Issue 19.1: everything built on the set of accounts refreshes when one is linked, and mail that
 * arrives later shows up without a reload or a press of Sync.
 */
import { acceptCookies, addMessage, api, identityWithMail, inboxRows, note } from "./dashboard-fixtures.ts";
import { addAccount, createIdentity, expect, openAccounts, signInOverHttp, test } from "./support/auth.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

test("linking a second account refreshes list and figures at once; later mail appears by itself", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const gmail = await identityWithMail([note("First from Gmail", 1)]);
  const outlook = await createIdentity("outlook", "Lee");
  await addMessage(outlook.email, note("First from Outlook", 2));
  await signInOverHttp(page, gmail.email);
  await expect(inboxRows(page)).toHaveCount(1);
  await expect(page.getByTestId("inbox-zero-progress")).toHaveText("0%");

  const dialog = await openAccounts(page);
  await addAccount(page, dialog, outlook);
  await expect(dialog.getByRole("listitem", { name: outlook.email })).toBeVisible();
  await page.keyboard.press("Escape");
  // No reload and no Sync: the new account's mail and figures arrive within seconds.
  await expect(inboxRows(page).filter({ hasText: "First from Outlook" })).toContainText(outlook.email, {
    timeout: 10_000,
  });
  await expect(inboxRows(page)).toHaveCount(2);
  const stats = await api<{ totalEmails: number; unreadCount: number }>(page, "/api/emails/stats");
  expect(stats.totalEmails).toBe(2);

  // Mail delivered later to either mailbox reaches the open page by itself (push, then the
  // dashboard's short poll of the sync state).
  await addMessage(gmail.email, note("Later from Gmail", 3));
  await addMessage(outlook.email, note("Later from Outlook", 4));
  await expect(inboxRows(page).filter({ hasText: "Later from Gmail" })).toHaveCount(1, { timeout: 25_000 });
  await expect(inboxRows(page).filter({ hasText: "Later from Outlook" })).toHaveCount(1, { timeout: 25_000 });
  await expect(inboxRows(page)).toHaveCount(4);
});
