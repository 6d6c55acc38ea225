/**
 * Issue 17 in the browser: the Privacy & Data Controls panel exports everything as a dated file,
 * saves each setting, schedules deletion with a banner that cancels it, and deletes at once.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { acceptCookies } from "./dashboard-fixtures.ts";
import { expect, recordToasts, seenToasts, sessionOverHttp, test } from "./support/auth.ts";
import { signedInWithMail } from "./support/reader-mail.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

async function openPrivacy(page: Page) {
  await page.getByRole("button", { name: "Privacy Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Privacy & Data Controls" });
  await expect(dialog).toBeVisible();
  return dialog;
}

const privacySettings = async (page: Page) => {
  const token = await page.evaluate(() => localStorage.getItem("sessionToken"));
  const res = await page.request.get("/api/privacy/settings", {
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await res.json()) as Record<string, unknown>;
};

test("export downloads a dated JSON file with the mail; settings and retention are saved", async ({
  page,
}) => {
  const { identity } = await signedInWithMail(page, [
    { from: { name: "Ola", address: "ola@example.org" }, subject: "Export me", text: "Keep this." },
  ]);
  const dialog = await openPrivacy(page);
  await recordToasts(page);
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Export My Data" }).click();
  const download = await downloading;
  const today = new Date().toISOString().slice(0, 10);
  expect(download.suggestedFilename()).toBe(`mailwise-export-${today}.json`);
  const exported = JSON.parse(await readFile((await download.path()) ?? "", "utf8")) as Record<
    string,
    unknown
  >;
  const text = JSON.stringify(exported);
  expect(text).toContain("Export me");
  expect(text).toContain(identity.email);
  // Never a token or a session hash.
  expect(text).not.toMatch(/ciphertext|tokenHash|refresh_token|access_token/i);
  await expect.poll(() => seenToasts(page)).toContainEqual(expect.stringContaining("Data Export Complete"));

  await dialog.getByRole("checkbox", { name: "Opt out of analytics" }).check();
  await expect.poll(async () => (await privacySettings(page)).analyticsOptOut).toBe(true);
  await dialog.getByRole("radio", { name: "Minimal: 90 days" }).check();
  await expect.poll(async () => (await privacySettings(page)).dataRetention).toBe("minimal");
  await page.reload();
  const again = await openPrivacy(page);
  await expect(again.getByRole("checkbox", { name: "Opt out of analytics" })).toBeChecked();
  await expect(again.getByRole("radio", { name: "Minimal: 90 days" })).toBeChecked();
});

test("scheduled deletion shows its date in a banner that cancels it; Delete Now signs out for good", async ({
  page,
}) => {
  const { identity } = await signedInWithMail(page, [
    { from: { name: "Ola", address: "ola@example.org" }, subject: "Soon gone", text: "Bye." },
  ]);
  const sessionUser = async () => {
    const token = await page.evaluate(() => localStorage.getItem("sessionToken"));
    const res = await page.request.get("/api/auth/session", {
      headers: { Authorization: `Bearer ${token}` },
    });
    return ((await res.json()) as { user: { id: string } }).user.id;
  };
  const before = await sessionUser();
  let dialog = await openPrivacy(page);
  await dialog.getByRole("button", { name: "Schedule Deletion" }).click();
  const confirmLater = page.getByRole("alertdialog", { name: "Delete your account in 30 days?" });
  await confirmLater.getByRole("button", { name: "Schedule Deletion" }).click();
  await expect(dialog.getByText(/scheduled for deletion on/)).toBeVisible();
  await page.keyboard.press("Escape");
  const banner = page.getByRole("region", { name: "Scheduled account deletion" });
  await expect(banner).toContainText("will be deleted on");
  const scheduled = (await privacySettings(page)).deletionScheduledFor as string;
  const days = (Date.parse(scheduled) - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29);
  expect(days).toBeLessThan(31);
  await banner.getByRole("button", { name: "Cancel" }).click();
  await expect(banner).toHaveCount(0);
  expect((await privacySettings(page)).deletionScheduledFor).toBeNull();

  dialog = await openPrivacy(page);
  await dialog.getByRole("button", { name: "Delete Now" }).click();
  const confirmNow = page.getByRole("alertdialog", { name: "Delete your account now?" });
  await recordToasts(page);
  await confirmNow.getByRole("button", { name: "Delete Everything Now" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => seenToasts(page)).toContainEqual(expect.stringContaining("Account Deleted"));
  expect(await page.evaluate(() => localStorage.getItem("sessionToken"))).toBeNull();

  // Signing in again starts a new user (the mail comes back from Gmail, which keeps it).
  const token = await sessionOverHttp(page, identity.email);
  const res = await page.request.get("/api/auth/session", { headers: { Authorization: `Bearer ${token}` } });
  const after = ((await res.json()) as { user: { id: string } }).user.id;
  expect(after).not.toBe(before);
});
