import type { Page } from "@playwright/test";
import { EMULATOR_URL, expect, storedToken, type TestIdentity, test, toastWith } from "./support/auth.ts";
import { emailOf, openEmail, signedInWithMail } from "./support/reader-mail.ts";

/**
 * Snooze (issue 37) from the reader on Gmail and on Outlook: the menu's presets, the picker's
 * check, the mail out of the inbox and in the Snoozed card, the provider's "Snoozed" label or
 * folder (emulator admin API), then the server clock moved past the time: the mail is back at
 * the top of the inbox, unread, marked "Snoozed until …", and back in INBOX at the provider.
 */
const SENDER = { name: "Mira Holt", address: "mira.holt@example.org" };

test.describe.configure({ timeout: 90_000 });

/** Moves the server clock (POST /api/_test/clock) and answers the server's time after it. */
async function serverClock(page: Page, seconds: number): Promise<number> {
  const res = await page.request.post("/api/_test/clock", {
    data: { advanceSeconds: seconds },
    headers: { authorization: `Bearer ${await storedToken(page)}` },
  });
  expect(res.ok()).toBe(true);
  return Date.parse(((await res.json()) as { now: string }).now);
}

/**
 * "Date and time" input text for ten minutes after the later of the browser's and the server's
 * clock: the other specs of this project move the server's clock ahead, so a preset counted from
 * the browser's clock ("Later today") may already be past for the server.
 */
async function tenMinutesAhead(page: Page): Promise<string> {
  const serverNow = await serverClock(page, 0);
  return page.evaluate(
    (at) => {
      const d = new Date(at);
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    },
    Math.max(Date.now(), serverNow) + 10 * 60_000,
  );
}

/** The emulator's copy of a message: labels by name, and its Outlook folder's name. */
async function atProvider(identity: TestIdentity, id: string) {
  const provider = identity.provider === "gmail" ? "google" : "microsoft";
  const res = await fetch(
    `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}/messages/${id}?provider=${provider}`,
  );
  const m = (await res.json()) as { labelIds: string[]; labelNames: string[]; folderName: string };
  return { inbox: m.labelIds.includes("INBOX"), unread: m.labelIds.includes("UNREAD"), ...m };
}

for (const provider of ["gmail", "outlook"] as const) {
  test(`${provider}: snoozed from the reader, out of the inbox into "Snoozed", back at its time marked`, async ({
    page,
  }) => {
    const subject = `Quarterly plan ${provider}`;
    const { identity, emails, delivered } = await signedInWithMail(
      page,
      [
        { from: SENDER, subject, text: "Can we go over the plan?" },
        { from: SENDER, subject: `Lunch ${provider}`, text: "Lunch on Friday?" },
      ],
      provider,
    );
    const email = emailOf(emails, subject);
    const sent = delivered.get(subject);
    if (!sent) throw new Error("not delivered");
    const reader = await openEmail(page, email);
    await reader.getByRole("button", { name: "Snooze" }).click();

    const menu = page.getByRole("dialog", { name: "Snooze until" });
    for (const preset of ["Later today", "Tomorrow", "This weekend", "Next week", "Pick date & time"])
      await expect(menu.getByRole("button", { name: new RegExp(`^${preset}`) })).toBeVisible();
    await menu.getByRole("button", { name: "Pick date & time" }).click();
    const input = menu.getByLabel("Date and time");
    await input.fill("2020-01-01T08:00");
    await menu.getByRole("button", { name: "Snooze", exact: true }).click();
    await expect(menu.getByRole("alert")).toHaveText("Pick a time in the future.");

    await input.fill(await tenMinutesAhead(page));
    await menu.getByRole("button", { name: "Snooze", exact: true }).click();
    await expect(menu).toBeHidden();
    await expect(toastWith(page, "Snoozed")).toBeVisible();
    await expect(reader).toBeHidden();
    await expect(page.locator(`[data-email-id="${email.id}"]`)).toHaveCount(0);

    const card = page.getByRole("list", { name: "Snoozed mail" });
    await expect(card.getByRole("listitem", { name: subject })).toContainText("Until");

    // At the provider: Gmail's "Snoozed" label without INBOX; Outlook's "Snoozed" folder.
    await expect
      .poll(async () => {
        const m = await atProvider(identity, sent.id);
        return provider === "gmail" ? m.labelNames.includes("Snoozed") && !m.inbox : m.folderName;
      })
      .toBe(provider === "gmail" ? true : "Snoozed");

    await serverClock(page, 11 * 60);
    const top = page.locator("[data-email-id]").first();
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.dispatchEvent(new Event("refreshEmails")));
          return top.textContent();
        },
        { timeout: 20_000 },
      )
      .toContain(subject);
    await expect(top).toContainText("Snoozed until");
    await expect(top).toContainText("(unread)");
    await expect(card.getByRole("listitem", { name: subject })).toHaveCount(0);
    const back = await atProvider(identity, sent.id);
    expect(back.inbox).toBe(true);
    expect(back.unread).toBe(true);
    expect(back.labelNames).not.toContain("Snoozed");
  });
}

test("the list's b key snoozes the selected mail; the Snoozed card's Unsnooze brings it back", async ({
  page,
}) => {
  const subject = "Invoice reminder";
  const { emails } = await signedInWithMail(page, [{ from: SENDER, subject, text: "Please pay." }]);
  const email = emailOf(emails, subject);
  const row = page.locator(`[data-email-id="${email.id}"]`);
  await expect(row).toBeVisible();
  await page.keyboard.press("j");
  await page.keyboard.press("b");
  const menu = page.getByRole("dialog", { name: "Snooze until" });
  await expect(menu.getByRole("button", { name: /^Later today/ })).toBeVisible();
  await menu.getByRole("button", { name: "Pick date & time" }).click();
  await menu.getByLabel("Date and time").fill(await tenMinutesAhead(page));
  await menu.getByRole("button", { name: "Snooze", exact: true }).click();
  await expect(menu).toBeHidden();
  await expect(row).toHaveCount(0);

  const item = page.getByRole("list", { name: "Snoozed mail" }).getByRole("listitem", { name: subject });
  await expect(item).toContainText("Until");
  await item.getByRole("button", { name: "Unsnooze" }).click();
  await expect(item).toHaveCount(0);
  await expect(row).toBeVisible();
});
