import { expect, type Page, test } from "@playwright/test";

/** Answers the cookie notice up front so it never covers what a test clicks. */
async function skipCookieNotice(page: Page) {
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
}

test.beforeEach(async ({ page }) => {
  await skipCookieNotice(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("the header links point where the spec says", async ({ page }) => {
  const header = page.getByRole("banner");
  const nav = header.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Features", exact: true })).toHaveAttribute("href", "#features");
  await expect(nav.getByRole("link", { name: "About", exact: true })).toHaveAttribute("href", "#about");
  await expect(nav.getByRole("link", { name: "Pricing", exact: true })).toHaveAttribute("href", "/pricing");
  await expect(nav.getByRole("link", { name: "FAQ", exact: true })).toHaveAttribute("href", "/pricing#faq");
  await expect(header.getByRole("link", { name: "Sign In", exact: true })).toHaveAttribute("href", "/login");
  await expect(header.getByRole("link", { name: "Get Started", exact: true })).toHaveAttribute(
    "href",
    "/signup",
  );
  await expect(header.getByRole("link", { name: "Mailwise" })).toHaveAttribute("href", "/");
});

test("Features and About scroll to their sections", async ({ page }) => {
  const features = page.getByRole("heading", { name: "Everything your inbox needs, in one place" });
  const about = page.getByRole("heading", { name: "Connect, analyze, respond" });
  await expect(about).not.toBeInViewport();

  const nav = page.getByRole("banner").getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "About", exact: true }).click();
  await expect(page).toHaveURL(/\/#about$/);
  await expect(about).toBeInViewport();
  await expect(page.locator("section#about")).toContainText("Connect, analyze, respond");

  await nav.getByRole("link", { name: "Features", exact: true }).click();
  await expect(page).toHaveURL(/\/#features$/);
  await expect(features).toBeInViewport();
  await expect(page.locator("section#features")).toContainText("Everything your inbox needs");
  // The sticky header must not cover the section heading once the smooth scroll has settled
  // (polled: mid-animation the heading can still be under the header).
  await expect
    .poll(async () => {
      const headerBox = await page.getByRole("banner").boundingBox();
      const headingBox = await features.boundingBox();
      return (headingBox?.y ?? 0) - ((headerBox?.y ?? 0) + (headerBox?.height ?? 0));
    })
    .toBeGreaterThanOrEqual(0);
});

test("the landing page has every section, with headings in order", async ({ page }) => {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your email, finally under control");
  const h2 = page.getByRole("main").getByRole("heading", { level: 2 });
  await expect(h2).toHaveText([
    "Everything your inbox needs, in one place",
    "Always on, always learning",
    "Connect, analyze, respond",
    "Ready to reach Inbox Zero?",
  ]);

  // Feature list (spec section 1).
  const features = page.locator("#features");
  for (const title of [
    "AI analysis of every email",
    "Reply drafts and writing help",
    "A personal AI agent",
    "Security scanning",
    "Inbox Zero, made a game",
    "Calendar and privacy controls",
    "One unified inbox for all your accounts",
  ]) {
    await expect(features.getByRole("heading", { level: 3, name: title })).toBeVisible();
  }
  await expect(features).toContainText("sentiment, its urgency and a short summary");
  await expect(features).toContainText("suggested reply drafts");
  await expect(features).toContainText("help composing new emails or improving");
  await expect(features).toContainText("Its memory stays with you across job changes");
  await expect(features).toContainText("phishing attempts are flagged");
  await expect(features).toContainText("Dashboard buckets");
  await expect(features).toContainText("swipe-style Inbox Zero mode");
  await expect(features).toContainText("achievements");
  await expect(features).toContainText("leaderboard");
  await expect(features).toContainText("several Gmail and Outlook accounts");
  await expect(features).toContainText("OAuth 2.0, so no passwords are ever stored");
  await expect(features).toContainText("no credit card is needed at sign-up");

  // AI agent status cards.
  const agent = page.getByRole("region", { name: "Always on, always learning" });
  await expect(agent.getByRole("listitem")).toHaveCount(4);
  for (const [label, status] of [
    ["Inbox analysis", "Active"],
    ["Reply drafts", "Ready"],
    ["Pattern learning", "Learning"],
    ["Security scan", "Protected"],
  ] as const) {
    const card = agent.getByRole("listitem").filter({ has: page.getByRole("heading", { name: label }) });
    await expect(card).toContainText(status);
  }

  // Connect / Analyze / Respond overview, in that order.
  await expect(page.locator("#about").getByRole("heading", { level: 3 })).toHaveText([
    "Connect",
    "Analyze",
    "Respond",
  ]);

  // No skipped heading levels anywhere on the page, and exactly one h1.
  const levels = await page
    .locator("h1, h2, h3, h4, h5, h6")
    .evaluateAll((els) => els.map((e) => Number(e.tagName.slice(1))));
  expect(levels.filter((l) => l === 1)).toHaveLength(1);
  expect(levels[0]).toBe(1);
  for (let i = 1; i < levels.length; i++) {
    expect(levels[i] ?? 0, `heading ${i} jumps a level`).toBeLessThanOrEqual((levels[i - 1] ?? 0) + 1);
  }
});

test("the hero and closing call to action lead to sign-up and pricing", async ({ page }) => {
  const hero = page.getByRole("region", { name: "Your email, finally under control" });
  await expect(hero).toContainText("14-day free trial");
  await expect(hero).toContainText("No credit card required");
  await expect(hero.getByRole("link", { name: "Start your free trial" })).toHaveAttribute("href", "/signup");
  await expect(hero.getByRole("link", { name: "See pricing" })).toHaveAttribute("href", "/pricing");

  const cta = page.getByRole("region", { name: "Ready to reach Inbox Zero?" });
  await expect(cta.getByRole("link", { name: "Get started free" })).toHaveAttribute("href", "/signup");
  await cta.getByRole("link", { name: "Compare plans" }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByRole("heading", { level: 1, name: "Simple, transparent pricing" })).toBeVisible();
});

test("the footer links point where the spec says", async ({ page }) => {
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Pricing" })).toHaveAttribute("href", "/pricing");
  await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute(
    "href",
    "/terms-of-service",
  );
  await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
    "href",
    "/privacy-policy",
  );
  await expect(footer.getByRole("link", { name: "Start free trial" })).toHaveAttribute("href", "/signup");
  await expect(footer.getByRole("link", { name: "Contact us" })).toHaveAttribute(
    "href",
    "mailto:hello@mailwise.app",
  );

  await footer.getByRole("link", { name: "Terms of Service" }).click();
  await expect(page).toHaveURL(/\/terms-of-service$/);
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
});

test("header links navigate client-side to sign-in and sign-up", async ({ page }) => {
  // A full page load would lose this marker; client-side navigation keeps it.
  await page.evaluate(() => {
    (window as unknown as { spaMarker: boolean }).spaMarker = true;
  });
  const header = page.getByRole("banner");
  await header.getByRole("link", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => (window as unknown as { spaMarker?: boolean }).spaMarker)).toBe(true);
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("banner").getByRole("link", { name: "Get Started", exact: true }).click();
  await expect(page).toHaveURL(/\/signup$/);
  expect(await page.evaluate(() => (window as unknown as { spaMarker?: boolean }).spaMarker)).toBe(true);
});

test("FAQ in the header opens /pricing#faq scrolled to the FAQ", async ({ page }) => {
  await page.getByRole("banner").getByRole("link", { name: "FAQ", exact: true }).click();
  await expect(page).toHaveURL(/\/pricing#faq$/);
  await expect(page.getByRole("heading", { name: "Frequently Asked Questions" })).toBeInViewport();
  await expect(
    page.getByRole("heading", { level: 1, name: "Simple, transparent pricing" }),
  ).not.toBeInViewport();
});

test("Features from another page returns home scrolled to the section", async ({ page }) => {
  await page.goto("/pricing");
  const nav = page.getByRole("banner").getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Features", exact: true })).toHaveAttribute(
    "href",
    "/#features",
  );
  await nav.getByRole("link", { name: "Features", exact: true }).click();
  await expect(page).toHaveURL(/\/#features$/);
  await expect(
    page.getByRole("heading", { name: "Everything your inbox needs, in one place" }),
  ).toBeInViewport();
});
