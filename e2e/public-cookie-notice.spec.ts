import { expect, test } from "@playwright/test";

for (const [button, stored] of [
  ["Accept", "accepted"],
  ["Decline", "declined"],
] as const) {
  test(`${button} stores cookieConsent=${stored} and the notice stays away after a reload`, async ({
    page,
  }) => {
    await page.goto("/");
    const notice = page.getByRole("region", { name: "Cookie notice" });
    await expect(notice).toBeVisible();
    await expect(notice.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
      "href",
      "/privacy-policy",
    );
    expect(await page.evaluate(() => localStorage.getItem("cookieConsent"))).toBeNull();

    await notice.getByRole("button", { name: button, exact: true }).click();
    await expect(notice).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem("cookieConsent"))).toBe(stored);

    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(notice).toHaveCount(0);
    await page.goto("/pricing");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(notice).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem("cookieConsent"))).toBe(stored);
  });
}

test("an unanswered notice comes back after a reload", async ({ page }) => {
  await page.goto("/pricing");
  const notice = page.getByRole("region", { name: "Cookie notice" });
  await expect(notice).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(notice).toBeVisible();
});

test("an unknown stored value does not count as an answer", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "maybe"));
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Cookie notice" })).toBeVisible();
});
