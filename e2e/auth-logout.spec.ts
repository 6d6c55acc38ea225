import { createIdentity, expect, signIn, storedToken, test, toastWith } from "./support/auth.ts";

const NOTE = /may need to re-authenticate your Gmail\/Outlook accounts/;

test.describe("logout", () => {
  test("manual: Confirm Logout ends the session and goes to /login", async ({ page }) => {
    const ana = await createIdentity("gmail", "Ana");
    await signIn(page, ana.email);
    const token = await storedToken(page);
    await page.getByRole("link", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/logout$/);
    await expect(page.getByText("Are you sure you want to log out?")).toBeVisible();
    await expect(page.getByText(NOTE)).toBeVisible();
    await page.getByRole("button", { name: "Confirm Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedToken(page)).toBeNull();
    // The server ended the session too.
    const res = await page.request.get("/api/auth/session", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status()).toBe(401);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("manual: Cancel goes back to the dashboard", async ({ page }) => {
    const ben = await createIdentity("outlook", "Ben");
    await signIn(page, ben.email);
    await page.goto("/logout");
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await storedToken(page)).not.toBeNull();
  });

  test("logging out in one tab signs the other tab out", async ({ context }) => {
    const cleo = await createIdentity("gmail", "Cleo");
    const first = await context.newPage();
    await signIn(first, cleo.email);
    const second = await context.newPage();
    await second.goto("/dashboard");
    await expect(second.getByRole("heading", { name: `Welcome, ${cleo.name}` })).toBeVisible();

    await first.goto("/logout");
    await first.getByRole("button", { name: "Confirm Logout" }).click();
    await expect(first).toHaveURL(/\/login$/);
    // The storage event reaches the other tab, which leaves the dashboard without a reload.
    await expect(second).toHaveURL(/\/login$/);
    await expect(second.getByRole("button", { name: "Continue with Gmail" })).toBeVisible();
  });

  const variants = [
    {
      reason: "session_expired",
      text: "Your session has expired for security reasons. Please log in again to continue.",
      goHome: true,
      toast: ["Session Expired", "Your session has expired. Please log in again."],
    },
    {
      reason: "token_invalid",
      text: "Your authentication token is no longer valid. Please log in again.",
      goHome: true,
      toast: ["Authentication Required", "Your authentication token is invalid. Please log in again."],
    },
    {
      reason: "auth_required",
      text: "You need to be logged in to access this feature.",
      goHome: false,
      toast: null,
    },
  ] as const;

  for (const v of variants) {
    test(`the ${v.reason} screen`, async ({ page }) => {
      await page.goto("/");
      await page.evaluate((reason) => sessionStorage.setItem("authFailureReason", reason), v.reason);
      await page.goto("/logout");
      await expect(page.getByText(v.text)).toBeVisible();
      await expect(page.getByText(NOTE)).toBeVisible();
      await expect(page.getByRole("button", { name: "Confirm Logout" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Go to Home" })).toHaveCount(v.goHome ? 1 : 0);
      if (v.toast) {
        const toast = toastWith(page, v.toast[0]);
        await expect(toast).toContainText(v.toast[1]);
      } else {
        await expect(page.getByText("Session Expired")).toHaveCount(0);
      }
      await page.getByRole("button", { name: "Log In Again" }).click();
      await expect(page).toHaveURL(/\/login$/);
    });
  }

  test("Go to Home leads to the landing page", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => sessionStorage.setItem("authFailureReason", "session_expired"));
    await page.goto("/logout");
    await page.getByRole("button", { name: "Go to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("without a stored reason the screen is the manual one", async ({ page }) => {
    await page.goto("/logout");
    await expect(page.getByText("Are you sure you want to log out?")).toBeVisible();
    await expect(page.getByRole("button", { name: "Confirm Logout" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel" })).toBeVisible();
  });

  test("an invalid stored token leads to /login with the 'Authentication Required' toast", async ({
    page,
  }) => {
    await page.goto("/");
    await page.evaluate(() => localStorage.setItem("sessionToken", "not-a-valid-token"));
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
    const toast = toastWith(page, "Authentication Required");
    await expect(toast).toContainText("Your authentication token is invalid. Please log in again.");
    expect(await storedToken(page)).toBeNull();
  });
});
