import {
  acceptCookies,
  addMessage,
  BUCKET_MAIL,
  identityWithMail,
  inboxRows,
  note,
  waitForSyncedEmails,
} from "./dashboard-fixtures.ts";
import {
  addAccount,
  createIdentity,
  expect,
  openAccounts,
  signInOverHttp,
  test,
  toastWith,
} from "./support/auth.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

test.describe("unified inbox", () => {
  test("search as you type: debounced, server full-text", async ({ page }) => {
    const me = await identityWithMail([
      note("Quarterly invoice from Fabrikam", 1),
      note("Lunch on Friday", 2),
      note("Quarterly roadmap review", 3),
      note("Photos from the weekend", 4),
    ]);
    await signInOverHttp(page, me.email);
    await waitForSyncedEmails(page, 4);
    await expect(inboxRows(page)).toHaveCount(4);

    const searches: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname === "/api/emails" && url.searchParams.has("q"))
        searches.push(url.searchParams.get("q") ?? "");
    });
    await page.keyboard.press("/");
    const search = page.getByRole("searchbox", { name: "Search all accounts" });
    await expect(search).toBeFocused();
    const whole = page.waitForRequest((r) => new URL(r.url()).searchParams.get("q") === "quarterly");
    await search.pressSequentially("quarterly", { delay: 30 });
    await whole;
    await expect(inboxRows(page)).toHaveCount(2);
    await expect(inboxRows(page).first()).toContainText("Quarterly roadmap review");
    // Keys 30 ms apart inside a 150 ms debounce: a request or two for the word, not one a key.
    expect(searches.length).toBeLessThanOrEqual(3);

    await search.pressSequentially(" roadmap", { delay: 40 });
    await expect(inboxRows(page)).toHaveCount(1);
    await expect(inboxRows(page).first()).toContainText("Quarterly roadmap review");
    await search.fill("nothing-matches-this");
    await expect(page.locator("#inbox")).toContainText("No emails match “nothing-matches-this”");
    await search.fill("");
    await expect(inboxRows(page)).toHaveCount(4);
  });

  test("two accounts in one list, each row names its account, and the account filter", async ({ page }) => {
    test.setTimeout(60_000);
    const gmail = await identityWithMail([note("From the Gmail side", 1), note("Gmail again", 2)]);
    const outlook = await createIdentity("outlook", "Lee");
    await addMessage(outlook.email, note("From the Outlook side", 3));
    await signInOverHttp(page, gmail.email);
    const dialog = await openAccounts(page);
    await addAccount(page, dialog, outlook);
    await expect(dialog.getByRole("listitem", { name: outlook.email })).toBeVisible();
    await page.keyboard.press("Escape");
    await waitForSyncedEmails(page, 3);
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("button", { name: "Sync" }).click();

    await expect(inboxRows(page)).toHaveCount(3);
    await expect(inboxRows(page).filter({ hasText: "From the Outlook side" })).toContainText(outlook.email);
    await expect(inboxRows(page).filter({ hasText: "From the Gmail side" })).toContainText(gmail.email);

    const filter = page.getByRole("combobox", { name: "Account" });
    await filter.selectOption({ label: outlook.email });
    await expect(inboxRows(page)).toHaveCount(1);
    await expect(inboxRows(page).first()).toContainText("From the Outlook side");
    await filter.selectOption({ label: gmail.email });
    await expect(inboxRows(page)).toHaveCount(2);
    await filter.selectOption({ label: "All accounts" });
    await expect(inboxRows(page)).toHaveCount(3);
  });

  test("a refused archive comes back with an Error toast", async ({ page }) => {
    const me = await identityWithMail([note("Keep me", 1), note("Other", 2)]);
    await signInOverHttp(page, me.email);
    await waitForSyncedEmails(page, 2);
    await expect(inboxRows(page)).toHaveCount(2);
    await page.route("**/api/emails/*", (route) =>
      route.request().method() === "PATCH"
        ? route.fulfill({
            status: 502,
            contentType: "application/json",
            body: '{"error":{"message":"down"}}',
          })
        : route.fallback(),
    );
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await expect(page.locator("#inbox [aria-current='true']")).toContainText("Keep me");
    await page.keyboard.press("e");
    await expect(toastWith(page, "Error")).toBeVisible();
    await expect(inboxRows(page).filter({ hasText: "Keep me" })).toHaveCount(1);
  });

  test("command palette: Ctrl+K, filter, Enter runs the command", async ({ page }) => {
    const me = await identityWithMail([BUCKET_MAIL.personal(1)]);
    await signInOverHttp(page, me.email);
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await expect(palette).toBeVisible();
    await palette.getByRole("combobox", { name: "Type a command" }).fill("leader");
    await expect(palette.getByRole("option")).toHaveCount(1);
    await page.keyboard.press("Enter");
    await expect(palette).toBeHidden();
    await expect(page.getByRole("dialog", { name: "Leaderboard Rankings" })).toBeVisible();
    await page.keyboard.press("Escape");

    await page.keyboard.press("Control+k");
    await palette.getByRole("combobox", { name: "Type a command" }).fill("compose");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog", { name: /Compose|New message|New email/ })).toBeVisible();
    await page.keyboard.press("Escape");
    await page.keyboard.press("c");
    await expect(page.getByRole("dialog", { name: /Compose|New message|New email/ })).toBeVisible();
  });
});
