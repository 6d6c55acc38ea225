/**
 * The Compose dialog's AI Assist flow against the real server's local engine: suggestions open
 * the AI Assist tab, applying and copying one, Improve, and the failure toasts with fallbacks.
 */
import type { Page } from "@playwright/test";
import { expect, recordToasts, seenToasts, test, toastWith } from "./support/auth.ts";
import { expectMessageText } from "./support/message-field.ts";
import { emailOf, openEmail, signedInWithMail } from "./support/reader-mail.ts";

const MEETING = {
  from: { name: "Ola Berg", address: "ola.berg@example.org" },
  subject: "Can we meet on Thursday?",
  text: "Hi, could we meet on Thursday at 14:00 to go through the launch plan? Let me know. Ola",
};

async function openCompose(page: Page) {
  await page.getByRole("button", { name: "Compose Email" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Compose Email" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("AI Suggest on a reply: AI Assist tab lists the suggestions; apply fills the message", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { emails } = await signedInWithMail(page, [MEETING]);
  const reader = await openEmail(page, emailOf(emails, MEETING.subject));
  await reader.getByRole("button", { name: "Reply", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Reply" });
  await expect(dialog.getByLabel("Subject")).toHaveValue(`Re: ${MEETING.subject}`);

  // Spec: the AI Assist tab is shown after suggestions arrive (issue 19.6), not before.
  await expect(dialog.getByRole("tab")).toHaveText(["Compose"]);
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/ai/compose-suggestions"));
  await dialog.getByRole("button", { name: "AI Suggest" }).click();
  const response = await answered;
  expect(response.status()).toBe(200);
  const { suggestions, engine } = (await response.json()) as { suggestions: string[]; engine: string };
  expect(engine).toBe("local");
  expect(suggestions.length).toBeGreaterThan(0);

  await expect(dialog.getByRole("tab", { name: "AI Assist" })).toHaveAttribute("aria-selected", "true");
  await expect(dialog.getByRole("tab")).toHaveText(["Compose", "AI Assist"]);
  const items = dialog.getByRole("list", { name: "AI suggestions" }).getByRole("listitem");
  await expect(items.locator("p")).toHaveText([...new Set(suggestions)]);

  await recordToasts(page);
  await dialog.getByRole("button", { name: "Copy suggestion 1" }).click();
  await expect.poll(() => seenToasts(page)).toContainEqual(expect.stringContaining("Copied"));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(suggestions[0]);

  const last = [...new Set(suggestions)].at(-1) ?? "";
  await items.last().getByRole("button", { name: "Use this suggestion" }).click();
  await expect(toastWith(page, "Suggestion applied")).toBeVisible();
  await expect(dialog.getByRole("tab", { name: "Compose" })).toHaveAttribute("aria-selected", "true");
  await expectMessageText(dialog, last);
});

test("Improve is enabled only with a message and replaces it with the improved text", async ({ page }) => {
  await signedInWithMail(page, [MEETING]);
  const dialog = await openCompose(page);
  const improve = dialog.getByRole("button", { name: "Improve" });
  const message = dialog.getByLabel("Message");
  await expect(improve).toBeDisabled();
  await message.fill("   ");
  await expect(improve).toBeDisabled();
  const draft = "hi ola,\ni think we can meet thursday . can u send the agenda before ?\nthanks";
  await message.fill(draft);
  await expect(improve).toBeEnabled();

  const answered = page.waitForResponse((r) => r.url().endsWith("/api/ai/improve-text"));
  await improve.click();
  const response = await answered;
  const request = response.request().postDataJSON() as { text: string };
  expect(request.text).toBe(draft);
  const { improvedText } = (await response.json()) as { improvedText: string };
  await expect(toastWith(page, "Text improved")).toBeVisible();
  await expectMessageText(dialog, improvedText);
  expect(improvedText).not.toBe(draft);
});

test("failures: the spec's titles with the fallback texts when the server gives no message", async ({
  page,
}) => {
  await signedInWithMail(page, [MEETING]);
  const noMessage = JSON.stringify({ error: { code: "internal", message: "" } });
  await page.route("**/api/ai/compose-suggestions", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: noMessage }),
  );
  await page.route("**/api/ai/improve-text", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: noMessage }),
  );
  const dialog = await openCompose(page);
  await dialog.getByRole("button", { name: "AI Suggest" }).click();
  const suggestFailed = toastWith(page, "AI assistance failed");
  await expect(suggestFailed).toBeVisible();
  await expect(suggestFailed).toContainText("Failed to generate AI suggestions");
  await expect(dialog.getByRole("tab", { name: "Compose" })).toHaveAttribute("aria-selected", "true");

  await dialog.getByLabel("Message").fill("pls fix");
  await dialog.getByRole("button", { name: "Improve" }).click();
  const improveFailed = toastWith(page, "Text improvement failed");
  await expect(improveFailed).toBeVisible();
  await expect(improveFailed).toContainText("Failed to improve text");
  await expect(dialog.getByLabel("Message")).toHaveText("pls fix");
});
