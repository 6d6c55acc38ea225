import {
  completeConsent,
  createIdentity,
  expect,
  openAccounts,
  sessionOverHttp,
  signInOverHttp,
  storedToken,
  test,
} from "./support/auth.ts";

test.describe("auth callback", () => {
  test("Cancel on the consent screen: cancelled message, then back at /login", async ({ page }) => {
    const ana = await createIdentity("gmail", "Ana");
    await page.goto("/signup");
    await page.getByRole("button", { name: "Continue with Gmail" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/signup"));
    await completeConsent(page, ana.email, "Cancel");
    await expect(page.getByRole("alert")).toHaveText("Authentication was cancelled or failed");
    // Spec section 9: back to /login 3 s after an error.
    await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });
    expect(await storedToken(page)).toBeNull();
  });

  test("no code and no token: 'No authorization code received'", async ({ page }) => {
    await page.goto("/auth/callback");
    await expect(page.getByRole("alert")).toHaveText("No authorization code received");
    await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });
  });

  test("an error parameter wins", async ({ page }) => {
    await page.goto("/auth/callback?error=access_denied&state=outlook.abc");
    await expect(page.getByRole("alert")).toHaveText("Authentication was cancelled or failed");
    expect(new URL(page.url()).search).toBe("");
  });

  test("a code the server refuses shows the server's reason and strips the code from the address", async ({
    page,
  }) => {
    await page.goto("/auth/callback?code=not-a-real-code&state=gmail.forged");
    await expect(page.getByRole("alert")).toHaveText(
      "This sign-in link is not valid. Please start signing in again.",
    );
    expect(new URL(page.url()).search).toBe("");
    await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });
  });

  test("an exception during the exchange: 'Authentication failed. Please try again.'", async ({ page }) => {
    await page.route("**/api/auth/outlook/callback?**", (route) => route.abort());
    await page.goto("/auth/callback?code=abc&state=outlook.xyz");
    await expect(page.getByRole("alert")).toHaveText("Authentication failed. Please try again.");
    // A failure inside the server is an exception too, not its generic 500 text.
    await page.route("**/api/auth/gmail/callback?**", (route) =>
      route.fulfill({
        status: 500,
        json: { error: { code: "internal", message: "Something went wrong on our side. Please try again." } },
      }),
    );
    await page.goto("/auth/callback?code=abc&state=gmail.xyz");
    await expect(page.getByRole("alert")).toHaveText("Authentication failed. Please try again.");
  });

  test("the provider comes from the state: outlook when it says so, else gmail", async ({ page }) => {
    const asked: string[] = [];
    await page.route("**/api/auth/*/callback?**", (route) => {
      asked.push(new URL(route.request().url()).pathname);
      return route.fulfill({ json: { success: false, message: "" } });
    });
    await page.goto("/auth/callback?code=abc&state=outlook.xyz");
    // The server's own message defaults to 'Authentication failed'.
    await expect(page.getByRole("alert")).toHaveText("Authentication failed");
    await page.goto("/auth/callback?code=abc&state=something");
    await expect(page.getByRole("alert")).toHaveText("Authentication failed");
    expect(asked).toEqual(["/api/auth/outlook/callback", "/api/auth/gmail/callback"]);
  });

  test("a link carrying someone else's token signs no one in; linking names who is signed in", async ({
    page,
    browser,
  }) => {
    // The attacker signs in and sends the spec's redirect form with their own session token.
    const mallory = await createIdentity("gmail", "Mallory");
    const token = await sessionOverHttp(page, mallory.email);
    expect(token).toBeTruthy();
    const link = `/auth/callback?success=true&sessionToken=${encodeURIComponent(token ?? "")}&provider=gmail`;

    const victim = await browser.newContext();
    try {
      // A browser that never started a flow opens the link: refused, not signed in.
      const tab = await victim.newPage();
      await tab.goto(link);
      await expect(tab.getByRole("alert")).toHaveText(
        "This sign-in link is not valid. Please start signing in again.",
      );
      expect(new URL(tab.url()).search).toBe("");
      await expect(tab).toHaveURL(/\/login$/, { timeout: 6_000 });
      expect(await storedToken(tab)).toBeNull();
      await tab.goto("/dashboard");
      await expect(tab).toHaveURL(/\/login$/);

      // Signed in as themselves, the link does not switch them to the attacker's user, and
      // linking a mailbox first names the person who is signed in.
      const vic = await createIdentity("outlook", "Vic");
      await signInOverHttp(tab, vic.email);
      const own = await storedToken(tab);
      await tab.goto(link);
      await expect(tab.getByRole("alert")).toBeVisible();
      await expect(tab).toHaveURL(/\/(login|dashboard)$/, { timeout: 6_000 });
      expect(await storedToken(tab)).toBe(own);
      await tab.goto("/dashboard");
      await expect(tab.getByRole("heading", { name: `Welcome, ${vic.name}` })).toBeVisible();
      const dialog = await openAccounts(tab);
      await dialog.getByRole("button", { name: "Add Gmail account" }).click();
      const confirm = tab.getByRole("alertdialog", { name: "Link a Gmail account?" });
      await expect(confirm).toContainText(`You are signed in as ${vic.name} (${vic.email}).`);
      await expect(confirm).toContainText("Link a Gmail account to this Mailwise account?");
      // Cancel opens no provider window.
      let popups = 0;
      tab.on("popup", () => popups++);
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await expect(confirm).toBeHidden();
      expect(popups).toBe(0);
    } finally {
      await victim.close();
    }
  });

  test("the real server-redirect flow ends on the dashboard with the token gone from the address", async ({
    page,
  }) => {
    const zoe = await createIdentity("gmail", "Zoe");
    // page.request shares the browser's cookies, so the flow cookie lands where the redirect needs it.
    const start = await page.request.get("/api/auth/gmail?flow=redirect");
    const { authUrl } = (await start.json()) as { authUrl: string };
    const urls: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) urls.push(frame.url());
    });
    await page.goto(authUrl);
    await completeConsent(page, zoe.email);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: `Welcome, ${zoe.name}` })).toBeVisible();
    expect(urls.some((u) => u.includes("/auth/callback?success=true"))).toBe(true);
    expect(page.url()).not.toContain("sessionToken");
    expect(await storedToken(page)).toBeTruthy();
  });
});
