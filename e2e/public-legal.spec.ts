import { expect, test } from "@playwright/test";
import { PRIVACY_SETTING_EFFECTS } from "../contract/privacy-texts.ts";

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
});

for (const path of ["/terms-of-service", "/tos"]) {
  test(`${path} shows the terms, with the 30-day deletion and the trial`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms of Service");
    const termination = page.locator("section#termination");
    await expect(termination.getByRole("heading", { level: 2 })).toHaveText(
      "8. Termination and deletion of your data",
    );
    await expect(termination).toContainText("Account data is deleted within 30 days of termination.");
    const trial = page.locator("section#trial-and-billing");
    await expect(trial).toContainText("14-day free trial");
    await expect(trial).toContainText("No credit card is required to sign up");
    await expect(trial).toContainText("$2.99 per month or $17.94 per year");
    await expect(trial).toContainText("$10 per work email per month or $96 per year");
    await expect(page.getByRole("main")).toContainText("OAuth 2.0");
  });
}

for (const path of ["/privacy-policy", "/privacy"]) {
  test(`${path} shows the privacy policy with retention, deletion, export and choices`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");

    const stored = page.locator("section#what-we-store");
    await expect(stored).toContainText("Account identity");
    await expect(stored).toContainText("encrypted at rest");
    await expect(stored).toContainText("Synced mail and AI analyses");
    await expect(stored).toContainText("Agent memories");

    const retention = page.locator("section#retention");
    await expect(retention.getByRole("listitem")).toHaveText([
      "Minimal: 90 days",
      "Standard: 2 years (default)",
      "Extended: 7 years",
    ]);
    await expect(retention).toContainText("The mail in your Gmail or Outlook mailbox is never touched.");

    const deletion = page.locator("section#deletion");
    await expect(deletion).toContainText("30-day grace period");
    await expect(deletion).toContainText("cancel it at any time");
    await expect(deletion).toContainText("Immediate deletion");
    await expect(deletion).toContainText("account data is deleted within 30 days of termination");

    await expect(page.locator("section#export")).toContainText("JSON file");
    await expect(page.locator("section#cookies")).toContainText("accepted or declined");
    const choices = page.locator("section#your-choices");
    await expect(choices).toContainText("We do not sell your data.");
    // The policy says what the code does: the very sentences the privacy panel shows.
    for (const effect of [
      PRIVACY_SETTING_EFFECTS.doNotSell,
      PRIVACY_SETTING_EFFECTS.analyticsOptOut,
      PRIVACY_SETTING_EFFECTS.marketingOptOut,
    ]) {
      await expect(choices).toContainText(effect);
    }
  });
}

test("the contents list jumps to a section", async ({ page }) => {
  await page.goto("/privacy-policy");
  const heading = page.getByRole("heading", { level: 2, name: "Your choices" });
  await expect(heading).not.toBeInViewport();
  await page
    .getByRole("navigation", { name: "Contents" })
    .getByRole("link", { name: "Your choices" })
    .click();
  await expect(page).toHaveURL(/#your-choices$/);
  await expect(heading).toBeInViewport();
});

test("legal pages link to each other and to the contact address", async ({ page }) => {
  await page.goto("/terms-of-service");
  await expect(
    page.locator("section#contact").getByRole("link", { name: "hello@mailwise.app" }),
  ).toHaveAttribute("href", "mailto:hello@mailwise.app");
  await page.locator("section#termination").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
});
