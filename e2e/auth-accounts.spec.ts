import {
  addAccount,
  completeConsent,
  createIdentity,
  expect,
  openAccounts,
  sessionOverHttp,
  signIn,
  signInOverHttp,
  startLink,
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

    await addAccount(page, dialog, second);
    await expect(dialog.getByRole("listitem", { name: second.email })).toContainText("Outlook");

    await addAccount(page, dialog, third);
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
    await addAccount(page, dialog, extra);
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
    await expect(confirm.getByRole("alert")).toContainText("This is your only connected account");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog.getByRole("listitem", { name: main.email })).toBeVisible();
  });

  test("an account that needs reconnecting says so and offers Reconnect", async ({ page }) => {
    const ivy = await createIdentity("gmail", "Ivy");
    await page.route("**/api/accounts", async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { accounts: Array<{ status: string }> };
      for (const a of body.accounts) a.status = "reauth_required";
      await route.fulfill({ response: res, json: body });
    });
    await signIn(page, ivy.email);
    const dialog = await openAccounts(page);
    const row = dialog.getByRole("listitem", { name: ivy.email });
    await expect(row).toContainText("Needs reconnect");
    const popupPromise = page.waitForEvent("popup");
    await startLink(page, () => row.getByRole("button", { name: "Reconnect" }).click(), "gmail");
    const popup = await popupPromise;
    await expect(popup.getByRole("button", { name: ivy.email })).toBeVisible();
    await popup.close();
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });

  test("an account that belongs to another user is refused in the popup", async ({ page, browser }) => {
    const owner = await createIdentity("gmail", "Owen");
    const other = await browser.newContext();
    try {
      // Owen's Gmail already belongs to his own Mailwise user (signing in is not the subject here).
      await sessionOverHttp(await other.newPage(), owner.email);
    } finally {
      await other.close();
    }
    const me = await createIdentity("outlook", "Mia");
    await signInOverHttp(page, me.email);
    const dialog = await openAccounts(page);
    const popupPromise = page.waitForEvent("popup");
    await startLink(page, () => dialog.getByRole("button", { name: "Add Gmail account" }).click(), "gmail");
    const popup = await popupPromise;
    const closed = popup.waitForEvent("close");
    await popup.getByRole("button", { name: owner.email }).click();
    await popup.getByRole("button", { name: "Allow", exact: true }).click();
    await expect(popup.getByRole("alert")).toHaveText(
      "This Gmail account is already connected to another Mailwise user.",
    );
    await closed;
    await expect(dialog.getByRole("listitem")).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("heading", { name: `Welcome, ${me.name}` })).toBeVisible();
  });
});

test("linking names the provider with the right article; 'Finish signing in' ends when the link succeeds", async ({
  page,
}) => {
  const me = await createIdentity("gmail", "Noor");
  const extra = await createIdentity("outlook", "Omar");
  await signInOverHttp(page, me.email);
  const dialog = await openAccounts(page);
  await dialog.getByRole("button", { name: "Add Outlook account" }).click();
  await expect(page.getByRole("alertdialog", { name: "Link an Outlook account?" })).toContainText(
    "Link an Outlook account to this Mailwise account?",
  );
  await page.getByRole("button", { name: "Cancel" }).click();

  // The pop-up is kept open after the link, as a browser may do (a tab on a phone, a refused
  // window.close): the dialog must learn of the success from the sign-in itself, not only from
  // the window closing.
  const popupPromise = page.waitForEvent("popup");
  await startLink(page, () => dialog.getByRole("button", { name: "Add Outlook account" }).click(), "outlook");
  const popup = await popupPromise;
  await popup.addInitScript(() => {
    window.close = () => undefined;
  });
  await expect(dialog.getByText("Finish signing in to Outlook in the pop-up window.")).toBeVisible();
  await completeConsent(popup, extra.email);
  await expect(dialog.getByRole("listitem", { name: extra.email })).toBeVisible({ timeout: 10_000 });
  await expect(dialog.getByText(/Finish signing in/)).toBeHidden();
  await expect(dialog.getByRole("button", { name: "Add Gmail account" })).toBeEnabled();
  await popup.close();
});
