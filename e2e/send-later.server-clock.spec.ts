import type { Page } from "@playwright/test";
import { createIdentity, expect, storedToken, test, toastWith } from "./support/auth.ts";
import { mailboxMessages, signedInWithMail } from "./support/reader-mail.ts";

/**
 * Send later (issue 37): compose schedules a mail on the server at a chosen time; it waits in the
 * Scheduled card, and goes when the server's clock reaches it (POST /api/_test/clock moves it a
 * few minutes only, as other specs share the server); a cancelled one never goes.
 */
const SENDER = { name: "Ola Berg", address: "ola.berg@example.org" };

test.describe.configure({ timeout: 90_000 });

async function moveServerClock(page: Page, seconds: number): Promise<Date> {
  const res = await page.request.post("/api/_test/clock", {
    data: { advanceSeconds: seconds },
    headers: { authorization: `Bearer ${await storedToken(page)}` },
  });
  expect(res.ok()).toBe(true);
  return new Date(((await res.json()) as { now: string }).now);
}

/** A datetime-local value in the browser's zone (the page's zone is the test process's). */
function localInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

async function scheduleFromCompose(page: Page, to: string, subject: string, at: Date): Promise<void> {
  await page.getByRole("button", { name: "Compose Email" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Compose Email" });
  await dialog.getByLabel("To").fill(to);
  await dialog.getByLabel("Subject").fill(subject);
  await dialog.getByLabel("Message").fill("See you soon.");
  await dialog.getByRole("button", { name: "Send later" }).click();
  const menu = page.getByRole("dialog", { name: "Send later" });
  // The presets, each with its date.
  await expect(menu.getByRole("button", { name: /^Tomorrow 8 AM/ })).toBeVisible();
  await expect(menu.getByRole("button", { name: /^Monday 8 AM/ })).toContainText(/Mon/);
  await menu.getByLabel("Pick date & time").fill(localInput(at));
  await menu.getByRole("button", { name: "Schedule send" }).click();
  await expect(dialog).toBeHidden();
  await expect(toastWith(page, "Scheduled for")).toBeVisible();
}

test("a mail scheduled from compose waits in Scheduled, then arrives exactly once; a cancelled one never", async ({
  page,
}) => {
  await signedInWithMail(page, [{ from: SENDER, subject: "Hello", text: "Hi" }], "gmail");
  const recipient = await createIdentity("gmail", "Rene");
  const kept = `Later ${Date.now()}`;
  const dropped = `Dropped ${Date.now()}`;
  const received = async (subject: string) =>
    (await mailboxMessages(recipient)).filter((m) => m.subject === subject).length;

  // Two minutes after the server's time, to the minute (the picker's precision).
  const serverNow = await moveServerClock(page, 0);
  const at = new Date(Math.ceil((serverNow.getTime() + 2 * 60_000) / 60_000) * 60_000);
  await scheduleFromCompose(page, recipient.email, kept, at);
  await scheduleFromCompose(page, recipient.email, dropped, at);

  const scheduled = page.getByRole("list", { name: "Scheduled mail" });
  const keptRow = scheduled.getByRole("listitem", { name: kept });
  await expect(keptRow).toContainText(recipient.email);
  const droppedRow = scheduled.getByRole("listitem", { name: dropped });
  await droppedRow.getByRole("button", { name: "Cancel" }).click();
  await expect(toastWith(page, "Scheduled mail cancelled")).toBeVisible();
  await expect(droppedRow).toHaveCount(0);
  expect(await received(kept)).toBe(0);

  await moveServerClock(page, Math.ceil((at.getTime() - serverNow.getTime()) / 1000) + 30);
  await expect.poll(() => received(kept), { timeout: 15_000 }).toBe(1);
  await page.waitForTimeout(2_000);
  expect(await received(kept)).toBe(1);
  expect(await received(dropped)).toBe(0);
  await page.reload();
  await expect(page.getByRole("region", { name: "Scheduled" })).toContainText("Nothing scheduled");
});

test("a time in the past is refused in the picker with a clear message", async ({ page }) => {
  await signedInWithMail(page, [{ from: SENDER, subject: "Hello", text: "Hi" }], "outlook");
  await page.getByRole("button", { name: "Compose Email" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Compose Email" });
  await dialog.getByLabel("To").fill("someone@example.org");
  await dialog.getByLabel("Subject").fill("Too early");
  await dialog.getByLabel("Message").fill("x");
  await dialog.getByRole("button", { name: "Send later" }).click();
  const menu = page.getByRole("dialog", { name: "Send later" });
  await menu.getByLabel("Pick date & time").fill(localInput(new Date(Date.now() - 3_600_000)));
  await menu.getByRole("button", { name: "Schedule send" }).click();
  await expect(menu.getByRole("alert")).toHaveText("The time to send is in the past. Pick a later time.");
  await expect(dialog).toBeVisible();
});
