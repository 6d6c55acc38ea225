/**
 * The AI Assistant Configuration modal and the buckets panel's assistant card against the real
 * agent API: validation, chip rules, defaults, create then update, memories, and the toasts.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test, toastWith } from "./support/auth.ts";
import { api, expectAccessibleDialog, signedInWithMail } from "./support/reader-mail.ts";
import { sendAtOnce } from "./support/send-at-once.ts";

const INVOICE = {
  from: { name: "Billing", address: "billing@cloudhost.example" },
  subject: "Your monthly invoice is ready",
  text: "Your monthly invoice INV-2291 for 49.00 EUR is attached. Payment is due in 14 days.",
};

interface StoredAgent {
  id: string;
  name: string;
  personality: string;
  email: string;
  preferences: {
    tone_preference: string;
    reply_style: string;
    email_signature: string;
    forbidden_phrases: string[];
    vip_contacts: string[];
    email_behavior: {
      ignore_categories: string[];
      auto_draft: boolean;
      auto_send: boolean;
      priority_handling: string;
    };
  };
}

/** The Email Buckets panel's AI assistant card. */
async function assistantCard(page: Page): Promise<Locator> {
  await page
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("button", { name: "Buckets", exact: true })
    .click();
  const panel = page.getByRole("dialog", { name: "Email Buckets" });
  await expect(panel).toBeVisible();
  const card = panel.getByTestId("assistant-card");
  await expect(card).toBeVisible();
  return card;
}

/** Opens the configuration modal from the card (the panel behind it is then hidden from AT). */
async function configure(page: Page, card: Locator): Promise<Locator> {
  await card.getByRole("button", { name: "Configure assistant" }).click();
  const dialog = page.getByRole("dialog", { name: "AI Assistant Configuration" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Agent name")).toBeVisible();
  return dialog;
}

async function openConfig(page: Page): Promise<Locator> {
  return configure(page, await assistantCard(page));
}

const chips = (dialog: Locator, name: string) => dialog.getByRole("list", { name }).getByRole("listitem");

test("a new agent: defaults, validation and chip rules, then create and update", async ({ page }) => {
  // One flow through every section of the form, twice (create, then update): about 30 s of
  // clicking on two shared cores.
  test.setTimeout(60_000);
  const { identity } = await signedInWithMail(page, [INVOICE]);
  const card = await assistantCard(page);
  await expect(card.getByTestId("assistant-status")).toContainText("Not configured");
  await expect(card.getByTestId("assistant-insights")).toContainText("0 conversations");
  const dialog = await configure(page, card);

  // Sections and defaults (spec section 5).
  for (const section of ["Basic Information", "Communication Style", "VIP Contacts", "Email Behavior"])
    await expect(dialog.getByRole("group", { name: section })).toBeVisible();
  await expect(dialog.getByTestId("agent-email")).toHaveText(identity.email);
  const tone = dialog.getByLabel("Tone");
  await expect(tone.locator("option")).toHaveText(["Professional", "Friendly", "Casual", "Formal", "Warm"]);
  await expect(tone).toHaveValue("Professional");
  const priority = dialog.getByLabel("Priority handling");
  await expect(priority.locator("option")).toHaveText(["Low", "Medium", "High"]);
  await expect(priority).toHaveValue("medium");
  await expect(dialog.getByRole("switch", { name: "Auto-draft replies" })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await expect(dialog.getByRole("switch", { name: "Auto-send replies" })).toHaveAttribute(
    "aria-checked",
    "false",
  );
  const ignore = dialog.getByRole("group", { name: "Ignore categories" }).getByRole("checkbox");
  await expect(ignore).toHaveCount(4);
  for (const c of ["Newsletters", "Promotions", "Notifications", "Social Media"])
    await expect(dialog.getByRole("checkbox", { name: c, exact: true })).not.toBeChecked();
  await expect(dialog.getByLabel("Reply style")).toHaveAttribute("rows", "3");
  await expect(dialog.getByLabel("Email signature")).toHaveAttribute("rows", "3");

  // The name is required: submit is disabled without it (blank counts as empty).
  const create = dialog.getByRole("button", { name: "Create Agent" });
  await expect(create).toBeDisabled();
  await dialog.getByLabel("Agent name").fill("   ");
  await expect(create).toBeDisabled();
  await dialog.getByLabel("Agent name").fill("Max");
  await expect(create).toBeEnabled();

  // Chips: Enter adds a trimmed item; blanks and duplicates (any case) are not added; removable.
  const phrase = dialog.getByRole("textbox", { name: "Forbidden phrases" });
  await phrase.fill("  per my last email  ");
  await phrase.press("Enter");
  await expect(chips(dialog, "Forbidden phrases")).toHaveText(["per my last email×"]);
  await expect(phrase).toHaveValue("");
  await phrase.fill("Per my last email");
  await phrase.press("Enter");
  await phrase.fill("   ");
  await phrase.press("Enter");
  await expect(chips(dialog, "Forbidden phrases")).toHaveCount(1);
  await phrase.fill("ASAP");
  await phrase.press("Enter");
  await phrase.fill("circle back");
  await phrase.press("Enter");
  await expect(chips(dialog, "Forbidden phrases")).toHaveCount(3);
  await dialog.getByRole("button", { name: "Remove ASAP" }).click();
  await expect(chips(dialog, "Forbidden phrases")).toHaveText(["per my last email×", "circle back×"]);
  // Enter in a chip input did not submit the form.
  await expect(dialog).toBeVisible();

  const vip = dialog.getByRole("textbox", { name: "VIP contacts" });
  await vip.fill(" boss@example.com ");
  await vip.press("Enter");
  await vip.fill("BOSS@example.com");
  await vip.press("Enter");
  await expect(chips(dialog, "VIP contacts")).toHaveText(["boss@example.com×"]);

  await tone.selectOption("Friendly");
  await dialog.getByLabel("Reply style").fill("Short and direct.");
  await dialog.getByLabel("Email signature").fill("Max\nSent by Mailwise");
  await dialog.getByRole("checkbox", { name: "Newsletters" }).check();
  await dialog.getByRole("checkbox", { name: "Social Media" }).check();
  await dialog.getByRole("switch", { name: "Auto-send replies" }).click();
  await priority.selectOption("high");
  await expectAccessibleDialog(page);

  // None exists yet: POST creates it.
  const posted = page.waitForRequest((r) => r.url().endsWith("/api/agent") && r.method() === "POST");
  await create.click();
  expect((await posted).postDataJSON()).toMatchObject({ name: "Max" });
  await expect(toastWith(page, "Success")).toBeVisible();
  const stored = await api<StoredAgent>(page, "/api/agent");
  expect(stored).toMatchObject({
    name: "Max",
    email: identity.email,
    preferences: {
      tone_preference: "Friendly",
      reply_style: "Short and direct.",
      email_signature: "Max\nSent by Mailwise",
      forbidden_phrases: ["per my last email", "circle back"],
      vip_contacts: ["boss@example.com"],
      email_behavior: {
        ignore_categories: ["Newsletters", "Social Media"],
        auto_draft: true,
        auto_send: true,
        priority_handling: "high",
      },
    },
  });
  await expect(dialog.getByRole("button", { name: "Update Agent" })).toBeVisible();

  // After a reload the form shows what was saved, and saving again updates (PATCH).
  await page.reload();
  const card2 = await assistantCard(page);
  await expect(card2.getByTestId("assistant-status")).toHaveText("Max is configured · Friendly tone");
  const d = await configure(page, card2);
  await expect(d.getByLabel("Agent name")).toHaveValue("Max");
  await expect(d.getByLabel("Tone")).toHaveValue("Friendly");
  await expect(d.getByLabel("Priority handling")).toHaveValue("high");
  await expect(d.getByLabel("Reply style")).toHaveValue("Short and direct.");
  await expect(d.getByLabel("Email signature")).toHaveValue("Max\nSent by Mailwise");
  await expect(chips(d, "Forbidden phrases")).toHaveText(["per my last email×", "circle back×"]);
  await expect(chips(d, "VIP contacts")).toHaveText(["boss@example.com×"]);
  await expect(d.getByRole("checkbox", { name: "Newsletters" })).toBeChecked();
  await expect(d.getByRole("checkbox", { name: "Promotions" })).not.toBeChecked();
  await expect(d.getByRole("switch", { name: "Auto-send replies" })).toHaveAttribute("aria-checked", "true");

  await d.getByLabel("Agent name").fill("Maxine");
  await d.getByRole("switch", { name: "Auto-draft replies" }).click();
  const patched = page.waitForRequest(
    (r) => r.url().endsWith(`/api/agent/${stored.id}`) && r.method() === "PATCH",
  );
  await d.getByRole("button", { name: "Update Agent" }).click();
  expect((await patched).postDataJSON()).toMatchObject({ name: "Maxine" });
  await expect(toastWith(page, "Success")).toBeVisible();
  const updated = await api<StoredAgent>(page, "/api/agent");
  expect(updated.id).toBe(stored.id);
  expect(updated.name).toBe("Maxine");
  expect(updated.preferences.email_behavior.auto_draft).toBe(false);
  await d.getByRole("button", { name: "Close", exact: true }).click();
  await expect(d).toBeHidden();
  await expect(card2.getByTestId("assistant-status")).toHaveText("Maxine is configured · Friendly tone");
});

test("insights counts and memories: the agent's memory can be deleted", async ({ page }) => {
  const { emails } = await signedInWithMail(page, [INVOICE]);
  // Memories are about the person's own correspondents: answering the sender teaches the agent
  // that this is someone they reply to.
  const invoice = emails.get(INVOICE.subject);
  const token = await page.evaluate(() => localStorage.getItem("sessionToken"));
  await sendAtOnce(page);
  const sent = await page.request.post("/api/emails/send", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      to: INVOICE.from.address,
      subject: `Re: ${INVOICE.subject}`,
      body: "Thanks, paid.",
      inReplyToId: invoice?.id,
    },
  });
  expect(sent.status()).toBe(200);
  const learnt = "You reply to Billing <billing@cloudhost.example>";
  await expect
    .poll(
      async () =>
        (await api<{ memories: Array<{ content: string }> }>(page, "/api/agent/memories")).memories.map(
          (m) => m.content,
        ),
      { timeout: 15_000 },
    )
    .toContain(learnt);
  // The reply also makes the invoice's sender a correspondent, so its analysis may add memories
  // after this point: the card, the dialog and the API are compared until they agree.
  const insightsNow = () =>
    api<{ totalMemories: number; totalConversations: number }>(page, "/api/agent/insights");
  const countText = (n: number) => `${n} ${n === 1 ? "memory" : "memories"}`;
  const card = await assistantCard(page);
  await expect
    .poll(
      async () => {
        const { totalMemories } = await insightsNow();
        return ((await card.getByTestId("assistant-insights").textContent()) ?? "").includes(
          countText(totalMemories),
        );
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const dialog = await configure(page, card);
  let insights = await insightsNow();
  await expect
    .poll(
      async () => {
        insights = await insightsNow();
        const memories = await dialog.getByTestId("total-memories").textContent();
        const conversations = await dialog.getByTestId("total-conversations").textContent();
        return (
          memories === String(insights.totalMemories) && conversations === String(insights.totalConversations)
        );
      },
      { timeout: 20_000 },
    )
    .toBe(true);

  const memories = dialog.getByRole("list", { name: "Memories" }).getByRole("listitem");
  await expect(memories).toHaveCount(insights.totalMemories);
  const invoiceMemory = memories.filter({ hasText: learnt });
  await expect(invoiceMemory).toHaveCount(1);
  await invoiceMemory.getByRole("button", { name: /^Delete memory/ }).click();
  await expect(invoiceMemory).toHaveCount(0);
  await expect(dialog.getByTestId("total-memories")).toHaveText(String(insights.totalMemories - 1));
  const left = await api<{ memories: Array<{ content: string }> }>(page, "/api/agent/memories");
  expect(left.memories.map((m) => m.content)).not.toContain(learnt);
});

test("a failed save shows 'Error' / 'Failed to save agent configuration'", async ({ page }) => {
  await signedInWithMail(page, [INVOICE]);
  await page.route("**/api/agent", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 500, contentType: "application/json", body: "{}" })
      : route.fallback(),
  );
  const dialog = await openConfig(page);
  await dialog.getByLabel("Agent name").fill("Max");
  await dialog.getByRole("button", { name: "Create Agent" }).click();
  const toast = toastWith(page, "Error");
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("Failed to save agent configuration");
  // Nothing was stored; the form still offers to create.
  expect(await api<StoredAgent | null>(page, "/api/agent")).toBeNull();
  await expect(dialog.getByRole("button", { name: "Create Agent" })).toBeEnabled();
});

test("the configuration modal fits a 360 px screen", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signedInWithMail(page, [INVOICE]);
  const dialog = await openConfig(page);
  const box = await dialog.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(360);
  const overflow = await dialog.evaluate((el) => {
    const scroller = el.querySelector(".overflow-y-auto");
    return scroller ? scroller.scrollWidth - scroller.clientWidth : 0;
  });
  expect(overflow).toBeLessThanOrEqual(0);
  await dialog.getByRole("button", { name: "Create Agent" }).scrollIntoViewIfNeeded();
  await expect(dialog.getByRole("button", { name: "Create Agent" })).toBeInViewport();
});
