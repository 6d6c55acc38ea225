/**
 * Issue 19.5: one Escape closes a dialog whatever toasts are up. A toast shown while a dialog is
 * open is Radix's top dismissable layer, which took the first Escape for itself.
 */
import type { Page } from "@playwright/test";
import { expect, test, toastWith } from "./support/auth.ts";
import { signedInWithMail } from "./support/reader-mail.ts";

const NOTE = { from: { name: "Ola Berg", address: "ola.berg@example.org" }, subject: "Hello", text: "Hi" };

async function openAssistantConfig(page: Page) {
  await page
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("button", { name: "Buckets", exact: true })
    .click();
  await page.getByTestId("assistant-card").getByRole("button", { name: "Configure assistant" }).click();
  const dialog = page.getByRole("dialog", { name: "AI Assistant Configuration" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("one Escape closes the assistant form after saving it, with the Success toast up", async ({ page }) => {
  await signedInWithMail(page, [NOTE]);
  const dialog = await openAssistantConfig(page);
  await dialog.getByLabel("Agent name").fill("Max");
  await dialog.getByRole("button", { name: "Create Agent" }).click();
  await expect(toastWith(page, "Success")).toBeVisible();
  await expect(dialog).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // The toast keeps its own time; Escape went to the dialog.
  await expect(toastWith(page, "Success")).toBeVisible();
});

test("one Escape closes Compose while a destructive toast is up; the next closes nothing else", async ({
  page,
}) => {
  await signedInWithMail(page, [NOTE]);
  await page.getByRole("button", { name: "Compose Email" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Compose Email" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toastWith(page, "Missing information")).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Focus inside the notification area (F8): Escape there is the toast's own.
  await page.keyboard.press("F8");
  await page.keyboard.press("Escape");
  await expect(toastWith(page, "Missing information")).toHaveCount(0);
});
