import {
  completeConsent,
  consentInPopup,
  createIdentity,
  expect,
  storedToken,
  test,
} from "./support/auth.ts";

test.describe("signup", () => {
  test("shows the providers, benefits, the OAuth note and the legal links", async ({ page }) => {
    await page.goto("/signup");
    await expect(page.getByRole("heading", { name: "Choose Your Email Provider" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Gmail" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Outlook" })).toBeVisible();
    await expect(page.getByText("14-day free trial, no credit card required")).toBeVisible();
    await expect(page.getByText("Secure sign-in with OAuth 2.0")).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Terms of Service" })).toHaveAttribute(
      "href",
      "/tos",
    );
    await expect(page.getByRole("main").getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
      "href",
      "/privacy",
    );
  });

  test("Gmail takes the whole page to the provider and back to the dashboard", async ({ page }) => {
    const priya = await createIdentity("gmail", "Priya");
    await page.goto("/signup");
    await page.getByRole("button", { name: "Continue with Gmail" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/signup"));
    await completeConsent(page, priya.email);
    // Spec section 4: success after a code exchange, then /dashboard 2 s later.
    await expect(page.getByRole("heading", { name: "Signed in successfully" })).toBeVisible();
    expect(new URL(page.url()).search).toBe("");
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 6_000 });
    await expect(page.getByRole("heading", { name: `Welcome, ${priya.name}` })).toBeVisible();
  });

  test("Outlook signs up through the popup", async ({ page }) => {
    const casey = await createIdentity("outlook", "Casey");
    await page.goto("/signup");
    await consentInPopup(
      page,
      () => page.getByRole("button", { name: "Continue with Outlook" }).click(),
      casey.email,
    );
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: `Welcome, ${casey.name}` })).toBeVisible();
  });

  test("Outlook falls back to a full-page sign-in when the popup is blocked", async ({ page }) => {
    await page.addInitScript(() => {
      window.open = () => null;
    });
    const kim = await createIdentity("outlook", "Kim");
    await page.goto("/signup");
    await page.getByRole("button", { name: "Continue with Outlook" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/signup"));
    await completeConsent(page, kim.email);
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 6_000 });
    await expect(page.getByRole("heading", { name: `Welcome, ${kim.name}` })).toBeVisible();
  });

  test("an unavailable provider is only logged and the button works again", async ({ page }) => {
    await page.route("**/api/auth/gmail", (route) => route.fulfill({ status: 503, body: "down" }));
    const errors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    });
    await page.goto("/signup");
    const button = page.getByRole("button", { name: "Continue with Gmail" });
    await button.click();
    await expect.poll(() => errors.some((e) => e.includes("Gmail authentication not available"))).toBe(true);
    await expect(button).toBeEnabled();
    await expect(page).toHaveURL(/\/signup$/);
    expect(await storedToken(page)).toBeNull();
  });
});
