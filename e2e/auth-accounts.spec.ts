import {
  consentInPopup,
  createIdentity,
  expect,
  openAccounts,
  signIn,
  storedToken,
  test,
} from "./support/auth.ts";

test.describe("connected accounts", () => {
  test("connects a second and third account, and any of them signs in to the same user", async ({ page }) => {
    test.setTimeout(60_000);
    const first = await createIdentity("gmail", "Morgan");
    const second = await createIdentity("outlook", "Lee");
    const third = await createIdentity("gmail", "Taylor");

    await signIn(page, first.email);
    const dialog = await openAccounts(page);
    await expect(dialog.getByRole("listitem")).toHaveCount(1);

    await consentInPopup(
      page,
      () => dialog.getByRole("button", { name: "Add Outlook account" }).click(),
      second.email,
    );
    await expect(dialog.getByRole("listitem", { name: second.email })).toContainText("Outlook");

    await consentInPopup(
      page,
      () => dialog.getByRole("button", { name: "Add Gmail account" }).click(),
      third.email,
    );
    await expect(dialog.getByRole("listitem", { name: third.email })).toContainText("Gmail");
    await expect(dialog.getByRole("listitem")).toHaveCount(3);
    await page.keyboard.press("Escape");

    // Still the first person, and the page lists all three mailboxes.
    await expect(page.getByRole("heading", { name: `Welcome, ${first.name}` })).toBeVisible();
    for (const who of [first, second, third]) await expect(page.getByText(who.email).first()).toBeVisible();

    await page.getByRole("link", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Confirm Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedToken(page)).toBeNull();

    await signIn(page, second.email);
    await expect(page.getByRole("heading", { name: `Welcome, ${first.name}` })).toBeVisible();
    const again = await openAccounts(page);
    await expect(again.getByRole("listitem")).toHaveCount(3);
    for (const who of [first, second, third]) {
      await expect(again.getByRole("listitem", { name: who.email })).toBeVisible();
    }
  });

  test("disconnects an account after confirmation, but never the last one", async ({ page }) => {
    test.setTimeout(60_000);
    const main = await createIdentity("outlook", "Riley");
    const extra = await createIdentity("gmail", "Quinn");
    await signIn(page, main.email);
    const dialog = await openAccounts(page);
    await consentInPopup(
      page,
      () => dialog.getByRole("button", { name: "Add Gmail account" }).click(),
      extra.email,
    );
    await expect(dialog.getByRole("listitem")).toHaveCount(2);

    await dialog.getByRole("button", { name: `Disconnect ${extra.email}` }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText(`Disconnect ${extra.email}?`);
    await confirm.getByRole("button", { name: "Disconnect" }).click();
    await expect(confirm).toBeHidden();
    await expect(dialog.getByRole("listitem")).toHaveCount(1);
    await expect(dialog.getByRole("listitem", { name: main.email })).toBeVisible();

    await dialog.getByRole("button", { name: `Disconnect ${main.email}` }).click();
    await confirm.getByRole("button", { name: "Disconnect" }).click();
    // The server refuses the last account with a message, which the dialog shows.
    await expect(confirm.getByRole("alert")).not.toBeEmpty();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog.getByRole("listitem", { name: main.email })).toBeVisible();
  });
});
