import { expect, test } from "@playwright/test";

const MESSAGE = "The application encountered an unexpected error. This is likely a temporary issue.";

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
});

test("a page chunk that fails to load shows the error screen; Reload Page recovers", async ({ page }) => {
  await page.route("**/assets/pricing-*.js", (route) => route.abort());
  await page.goto("/pricing");

  const alert = page.getByRole("alert");
  await expect(alert.getByRole("heading", { level: 1 })).toHaveText("Something went wrong");
  await expect(alert.getByText(MESSAGE, { exact: true })).toBeVisible();
  await expect(alert.getByRole("button", { name: "Try Again" })).toBeVisible();
  await expect(alert.getByRole("button", { name: "Reload Page" })).toBeVisible();
  const details = alert.getByText("Error Details", { exact: true });
  await expect(details).toBeVisible();
  await details.click();
  await expect(alert.locator("pre")).toBeVisible();
  await expect(alert.locator("pre")).not.toBeEmpty();

  await page.unroute("**/assets/pricing-*.js");
  await alert.getByRole("button", { name: "Reload Page" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Simple, transparent pricing");
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("a failed chunk on client-side navigation shows the error screen too", async ({ page }) => {
  await page.route("**/assets/pricing-*.js", (route) => route.abort());
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByRole("banner").getByRole("link", { name: "Pricing", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
  await expect(page.getByText(MESSAGE, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Try Again" })).toBeVisible();
});
