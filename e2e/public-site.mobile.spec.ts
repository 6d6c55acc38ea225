import { expect, type Page, test } from "@playwright/test";

// The desktop project matches every *.spec.ts; these checks only make sense on the phone.
test.skip(({ viewport }) => (viewport?.width ?? 0) > 400, "phone viewport only");

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
});

async function expectNoHorizontalOverflow(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    viewport: window.innerWidth,
  }));
  expect(widths.viewport).toBe(360);
  expect(widths.scroll).toBeLessThanOrEqual(360);
}

for (const path of [
  "/",
  "/pricing",
  "/pricing#faq",
  "/terms-of-service",
  "/privacy-policy",
  "/no-such-page",
]) {
  test(`${path} fits a 360 px wide phone without horizontal scrolling`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoHorizontalOverflow(page);
  });
}

test("the cookie notice fits the phone and can be answered", async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto("/");
  const notice = page.getByRole("region", { name: "Cookie notice" });
  await expect(notice).toBeInViewport({ ratio: 1 });
  await expectNoHorizontalOverflow(page);
  await notice.getByRole("button", { name: "Decline" }).click();
  await expect(notice).toBeHidden();
  await context.close();
});

test("the mobile menu opens, navigates and closes", async ({ page }) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("navigation", { name: "Main" })).toBeHidden();
  const toggle = header.getByRole("button", { name: "Open menu" });
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  await toggle.click();
  const close = header.getByRole("button", { name: "Close menu" });
  await expect(close).toHaveAttribute("aria-expanded", "true");
  const menu = header.getByRole("navigation", { name: "Mobile" });
  await expect(menu).toBeVisible();
  for (const [name, href] of [
    ["Features", "#features"],
    ["About", "#about"],
    ["Pricing", "/pricing"],
    ["FAQ", "/pricing#faq"],
    ["Sign In", "/login"],
    ["Get Started", "/signup"],
  ] as const) {
    await expect(menu.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    await expect(menu.getByRole("link", { name, exact: true })).toBeInViewport();
  }

  // An in-page anchor closes the menu and scrolls.
  await menu.getByRole("link", { name: "About", exact: true }).click();
  await expect(menu).toBeHidden();
  await expect(page.getByRole("heading", { name: "Connect, analyze, respond" })).toBeInViewport();

  // Escape closes it too.
  await header.getByRole("button", { name: "Open menu" }).click();
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();

  // A route link navigates and closes it; FAQ then scrolls on the pricing page.
  await header.getByRole("button", { name: "Open menu" }).click();
  await menu.getByRole("link", { name: "Pricing", exact: true }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(menu).toBeHidden();
  await header.getByRole("button", { name: "Open menu" }).click();
  await menu.getByRole("link", { name: "FAQ", exact: true }).click();
  await expect(page).toHaveURL(/\/pricing#faq$/);
  await expect(page.getByRole("heading", { name: "Frequently Asked Questions" })).toBeInViewport();
  await expectNoHorizontalOverflow(page);
});

test("pricing is usable on the phone: toggle, plans and the contact-sales dialog", async ({ page }) => {
  await page.goto("/pricing");
  await page.getByRole("button", { name: "Annual" }).tap();
  await expect(page.getByTestId("price-personal")).toHaveText("$17.94per year");
  const professional = page.getByTestId("price-professional");
  await professional.scrollIntoViewIfNeeded();
  await expect(professional).toHaveText("$96per work email per year");

  await page.getByRole("button", { name: "Contact Sales" }).tap();
  const dialog = page.getByRole("dialog", { name: "Contact Sales" });
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(360);
  await dialog.getByLabel("Company name").fill("Acme Corp");
  const send = dialog.getByRole("button", { name: "Send Request" });
  await send.scrollIntoViewIfNeeded();
  await expect(send).toBeInViewport();
  await dialog.getByRole("button", { name: "Cancel" }).tap();
  await expect(dialog).toBeHidden();
  await expectNoHorizontalOverflow(page);
});

test("the landing page's calls to action are reachable on the phone", async ({ page }) => {
  await page.goto("/");
  const start = page.getByRole("link", { name: "Start your free trial" });
  await expect(start).toBeInViewport();
  await start.tap();
  await expect(page).toHaveURL(/\/signup$/);
});
