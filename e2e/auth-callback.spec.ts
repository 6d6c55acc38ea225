import { completeConsent, createIdentity, expect, signIn, storedToken, test } from "./support/auth.ts";

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

  test("the server-redirect form stores the token, goes straight on, and leaves no token in the URL", async ({
    page,
    browser,
  }) => {
    const lee = await createIdentity("outlook", "Lee");
    await signIn(page, lee.email);
    const token = await storedToken(page);
    expect(token).toBeTruthy();

    const other = await browser.newContext();
    try {
      const tab = await other.newPage();
      await tab.goto(
        `/auth/callback?success=true&sessionToken=${encodeURIComponent(token ?? "")}&provider=outlook`,
      );
      await expect(tab).toHaveURL(/\/dashboard$/);
      await expect(tab.getByRole("heading", { name: `Welcome, ${lee.name}` })).toBeVisible();
      expect(tab.url()).not.toContain("sessionToken");
      expect(await tab.evaluate(() => window.location.href)).not.toContain(token ?? "");
      expect(await storedToken(tab)).toBe(token);
    } finally {
      await other.close();
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
