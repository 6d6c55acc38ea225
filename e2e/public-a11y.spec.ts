import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe.ts";

const PAGES: { path: string; heading: string | RegExp }[] = [
  { path: "/", heading: "Your email, finally under control" },
  { path: "/pricing", heading: "Simple, transparent pricing" },
  { path: "/terms-of-service", heading: "Terms of Service" },
  { path: "/privacy-policy", heading: "Privacy Policy" },
  { path: "/login", heading: /./ },
  { path: "/signup", heading: /./ },
  { path: "/no-such-page", heading: "Page Not Found" },
];

for (const { path, heading } of PAGES) {
  test(`${path} has no serious or critical axe violations`, async ({ page }) => {
    // First visit: the cookie notice is part of the page and is checked with it.
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByRole("region", { name: "Cookie notice" })).toBeVisible();
    await expectNoSeriousA11yViolations(page, path);
  });
}

test("the open contact-sales dialog has no serious or critical axe violations", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
  await page.goto("/pricing");
  await page.getByRole("button", { name: "Contact Sales" }).click();
  await expect(page.getByRole("dialog", { name: "Contact Sales" })).toBeVisible();
  await expectNoSeriousA11yViolations(page, "/pricing with the contact-sales dialog");
});

test("the annual pricing view has no serious or critical axe violations", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
  await page.goto("/pricing");
  await page.getByRole("button", { name: "Annual" }).click();
  await expect(page.getByTestId("price-personal")).toContainText("$17.94");
  await expectNoSeriousA11yViolations(page, "/pricing (annual)");
});
