import { expect, test } from "@playwright/test";

test("an unknown path shows the 404 page with its links", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await expect(page.getByText("The page you're looking for doesn't exist or has been moved.")).toBeVisible();
  await page.getByRole("link", { name: "View Pricing" }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await page.goto("/still/missing");
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});
