import { createIdentity, expect, openAccounts, signIn, test } from "./support/auth.ts";
import { expectNoSeriousA11yViolations } from "./support/axe.ts";

test.describe("sign-in pages are accessible", () => {
  test("login, signup, logout and callback", async ({ page }) => {
    for (const path of ["/login", "/signup", "/logout"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoSeriousA11yViolations(page, path);
    }
    await page.goto("/auth/callback");
    await expect(page.getByRole("alert")).toBeVisible();
    await expectNoSeriousA11yViolations(page, "/auth/callback (error)");
  });

  test("dashboard and the connected-accounts dialog", async ({ page }) => {
    const robin = await createIdentity("outlook");
    await signIn(page, robin.email);
    await expectNoSeriousA11yViolations(page, "/dashboard");
    await openAccounts(page);
    await expectNoSeriousA11yViolations(page, "connected accounts dialog");
  });
});
