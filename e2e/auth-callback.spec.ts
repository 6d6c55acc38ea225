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

  test("a code the server refuses fails and strips the code from the address", async ({ page }) => {
    await page.goto("/auth/callback?code=not-a-real-code&state=gmail.forged");
    await expect(page.getByRole("alert")).toHaveText(/^Authentication failed/);
    expect(new URL(page.url()).search).toBe("");
    await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });
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
});
