import { expect, type Locator, type Page, test } from "@playwright/test";

const WRONG_SUM = "Please solve the math problem correctly to verify you are human.";
const THANKS = "Thank you! We'll get back to you within 24 hours.";

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
});

/** Collects every window.alert message and accepts it. */
function recordAlerts(page: Page): string[] {
  const messages: string[] = [];
  page.on("dialog", (dialog) => {
    messages.push(dialog.message());
    void dialog.accept();
  });
  return messages;
}

async function openContactSales(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Contact Sales" }).click();
  const dialog = page.getByRole("dialog", { name: "Contact Sales" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Reads "What is A + B?" and returns both operands. */
async function readQuestion(dialog: Locator): Promise<{ a: number; b: number; text: string }> {
  const text = (await dialog.getByText(/^What is \d+ \+ \d+\?$/).textContent()) ?? "";
  const match = /^What is (\d+) \+ (\d+)\?$/.exec(text);
  expect(match, `question text: ${text}`).not.toBeNull();
  return { a: Number(match?.[1]), b: Number(match?.[2]), text };
}

test("shows the three plans with monthly and annual prices in dollars", async ({ page }) => {
  await page.goto("/pricing");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Simple, transparent pricing");
  await expect(page.getByText("Start with a 14-day free trial. No credit card required.")).toBeVisible();
  for (const name of ["Personal", "Professional", "Enterprise"]) {
    await expect(page.getByRole("heading", { level: 3, name, exact: true })).toBeVisible();
  }

  const monthly = page.getByRole("button", { name: "Monthly" });
  const annual = page.getByRole("button", { name: "Annual" });
  await expect(monthly).toHaveAttribute("aria-pressed", "true");
  await expect(annual).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("price-personal")).toHaveText("$2.99per month");
  await expect(page.getByTestId("price-professional")).toHaveText("$10per work email per month");
  await expect(page.getByText("or $17.94 per year (-50% annually)")).toBeVisible();
  await expect(page.getByText("or $96 per year (-20% annually)")).toBeVisible();

  await annual.click();
  await expect(annual).toHaveAttribute("aria-pressed", "true");
  await expect(monthly).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("price-personal")).toHaveText("$17.94per year");
  await expect(page.getByTestId("price-professional")).toHaveText("$96per work email per year");
  await expect(page.getByText("-50%", { exact: true })).toBeVisible();
  await expect(page.getByText("-20%", { exact: true })).toBeVisible();
  await expect(page.getByText("Instead of $35.88 when paid monthly")).toBeVisible();
  await expect(page.getByText("Instead of $120 when paid monthly")).toBeVisible();

  await monthly.click();
  await expect(page.getByTestId("price-personal")).toHaveText("$2.99per month");
  await expect(page.getByText("-50%", { exact: true })).toHaveCount(0);

  await expect(page.getByText("Custom pricing for your team")).toBeVisible();
  const trialLinks = page.getByRole("link", { name: "Start 14-day free trial" });
  await expect(trialLinks).toHaveCount(2);
  for (const link of await trialLinks.all()) await expect(link).toHaveAttribute("href", "/signup");
});

test("/pricing#faq opens scrolled to the FAQ, which covers data deletion", async ({ page }) => {
  await page.goto("/pricing#faq");
  const faq = page.getByRole("heading", { level: 2, name: "Frequently Asked Questions" });
  await expect(faq).toBeInViewport();
  await expect(page.getByRole("heading", { level: 1 })).not.toBeInViewport();
  const section = page.locator("section#faq");
  await expect(section).toContainText("Account data is deleted within 30 days of termination.");
  await expect(section).toContainText("14-day free trial");
  await expect(section.getByRole("link", { name: "hello@mailwise.app" })).toHaveAttribute(
    "href",
    "mailto:hello@mailwise.app",
  );
});

test("client-side navigation to /pricing#faq from the 404 page scrolls to the FAQ", async ({ page }) => {
  await page.goto("/no-such-page");
  await page.getByRole("link", { name: "View Pricing" }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  // Already on /pricing, the header's FAQ link must still scroll.
  await page.getByRole("banner").getByRole("link", { name: "FAQ", exact: true }).click();
  await expect(page).toHaveURL(/\/pricing#faq$/);
  await expect(page.getByRole("heading", { name: "Frequently Asked Questions" })).toBeInViewport();
});

test.describe("contact sales", () => {
  test("required company name and a valid email block the submission", async ({ page }) => {
    const alerts = recordAlerts(page);
    await page.goto("/pricing");
    const dialog = await openContactSales(page);
    const company = dialog.getByLabel("Company name");
    const email = dialog.getByLabel("Email");
    await expect(company).toHaveAttribute("required", "");
    await expect(email).toHaveAttribute("required", "");
    await expect(email).toHaveAttribute("type", "email");
    await expect(dialog.getByLabel("Team size")).not.toHaveAttribute("required");
    await expect(dialog.getByLabel("Message")).not.toHaveAttribute("required");

    const { a, b } = await readQuestion(dialog);
    await dialog.getByLabel(/^What is/).fill(String(a + b));

    await dialog.getByRole("button", { name: "Send Request" }).click();
    expect(await company.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);

    await company.fill("Acme Corp");
    await dialog.getByRole("button", { name: "Send Request" }).click();
    expect(await email.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);

    await email.fill("not-an-email");
    await dialog.getByRole("button", { name: "Send Request" }).click();
    expect(await email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);

    await expect(dialog).toBeVisible();
    expect(alerts).toEqual([]);
  });

  test("a wrong or missing sum shows the exact alert and keeps the dialog open", async ({ page }) => {
    const alerts = recordAlerts(page);
    await page.goto("/pricing");
    const dialog = await openContactSales(page);
    await dialog.getByLabel("Company name").fill("Acme Corp");
    await dialog.getByLabel("Email").fill("buyer@acme.example");
    const { a, b } = await readQuestion(dialog);

    await dialog.getByLabel(/^What is/).fill(String(a + b + 1));
    await dialog.getByRole("button", { name: "Send Request" }).click();
    await expect.poll(() => alerts).toEqual([WRONG_SUM]);

    await dialog.getByLabel(/^What is/).fill("");
    await dialog.getByRole("button", { name: "Send Request" }).click();
    await expect.poll(() => alerts).toEqual([WRONG_SUM, WRONG_SUM]);

    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Company name")).toHaveValue("Acme Corp");
  });

  test("New asks a different question with numbers from 1 to 10", async ({ page }) => {
    await page.goto("/pricing");
    const dialog = await openContactSales(page);
    let previous = await readQuestion(dialog);
    for (let i = 0; i < 8; i++) {
      await dialog.getByLabel(/^What is/).fill("3");
      await dialog.getByRole("button", { name: "New", exact: true }).click();
      await expect(dialog.getByText(/^What is \d+ \+ \d+\?$/)).not.toHaveText(previous.text);
      const next = await readQuestion(dialog);
      for (const n of [next.a, next.b]) {
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(10);
      }
      await expect(dialog.getByLabel(/^What is/)).toHaveValue("");
      previous = next;
    }
  });

  test("a correct submission thanks, resets, closes and sends nothing", async ({ page }) => {
    const alerts = recordAlerts(page);
    const logged: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "info") logged.push(msg.text());
    });
    await page.goto("/pricing");
    const apiCalls: string[] = [];
    page.on("request", (req) => {
      if (req.method() !== "GET" || new URL(req.url()).pathname.startsWith("/api/")) apiCalls.push(req.url());
    });

    const dialog = await openContactSales(page);
    await dialog.getByLabel("Company name").fill("Acme Corp");
    await dialog.getByLabel("Email").fill("buyer@acme.example");
    await dialog.getByLabel("Team size").fill("40");
    await dialog.getByLabel("Message").fill("We would like a quote.");
    const { a, b } = await readQuestion(dialog);
    await dialog.getByLabel(/^What is/).fill(String(a + b));
    await dialog.getByRole("button", { name: "Send Request" }).click();

    await expect.poll(() => alerts).toEqual([THANKS]);
    await expect(dialog).toBeHidden();
    await expect.poll(() => logged.some((l) => l.includes("Contact sales request"))).toBe(true);
    expect(apiCalls).toEqual([]);

    const reopened = await openContactSales(page);
    await expect(reopened.getByLabel("Company name")).toHaveValue("");
    await expect(reopened.getByLabel("Email")).toHaveValue("");
    await expect(reopened.getByLabel("Team size")).toHaveValue("");
    await expect(reopened.getByLabel("Message")).toHaveValue("");
    await expect(reopened.getByLabel(/^What is/)).toHaveValue("");
  });

  test("Cancel and Escape close the dialog without alerts", async ({ page }) => {
    const alerts = recordAlerts(page);
    await page.goto("/pricing");
    let dialog = await openContactSales(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    dialog = await openContactSales(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: "Contact Sales" })).toBeFocused();
    expect(alerts).toEqual([]);
  });
});
