/** Issue 38: Settings > Notifications, its browser permission, and the choice kept on the server. */
import { acceptCookies } from "./dashboard-fixtures.ts";
import { createIdentity, expect, openAccounts, signInOverHttp, test } from "./support/auth.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

test("turning on Important mail asks the browser, and the choice persists after a reload", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["notifications"]);
  const person = await createIdentity("gmail");
  await signInOverHttp(page, person.email);
  let section = (await openAccounts(page)).getByRole("region", { name: "Notifications" });
  await expect(section.getByRole("radio", { name: /^Off/ })).toBeChecked();
  await section.getByRole("radio", { name: /^Important mail/ }).click();
  await expect(section.getByRole("radio", { name: /^Important mail/ })).toBeChecked();
  await expect(section.getByRole("checkbox", { name: "Quiet hours" })).toBeVisible();
  await expect(section.getByRole("alert")).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible({ timeout: 15_000 });
  section = (await openAccounts(page)).getByRole("region", { name: "Notifications" });
  await expect(section.getByRole("radio", { name: /^Important mail/ })).toBeChecked();
});

test("a denied permission says how to allow it and leaves notifications off", async ({ page }) => {
  // The headless browser denies a permission nobody granted, as a person's "Block" would.
  const person = await createIdentity("gmail");
  await signInOverHttp(page, person.email);
  const section = (await openAccounts(page)).getByRole("region", { name: "Notifications" });
  await section.getByRole("radio", { name: /^All new mail/ }).click();
  await expect(section.getByRole("alert")).toHaveText(
    "Notifications are blocked for Mailwise in this browser. Allow them in the browser's site settings, then choose again.",
  );
  await expect(section.getByRole("radio", { name: /^Off/ })).toBeChecked();
});
