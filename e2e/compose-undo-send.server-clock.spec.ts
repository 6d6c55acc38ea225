import type { Page } from "@playwright/test";
import { createIdentity, expect, storedToken, test, toastWith } from "./support/auth.ts";
import { expectMessageText } from "./support/message-field.ts";
import { mailboxMessages, signedInWithMail } from "./support/reader-mail.ts";

/**
 * Undo send (issue 36): the mail waits on the server for the person's delay (10 s by default);
 * Undo reopens compose with it intact and nothing ever arrives; sent again, exactly one arrives.
 * The server clock is moved past the delay (POST /api/_test/clock), a few seconds only.
 */
const SENDER = { name: "Ola Berg", address: "ola.berg@example.org" };

// Sign-in and sync, two delays and two deliveries: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

async function moveServerClock(page: Page, seconds: number): Promise<void> {
  const res = await page.request.post("/api/_test/clock", {
    data: { advanceSeconds: seconds },
    headers: { authorization: `Bearer ${await storedToken(page)}` },
  });
  expect(res.ok()).toBe(true);
}

for (const provider of ["gmail", "outlook"] as const) {
  test(`${provider}: Undo reopens compose intact and nothing arrives; sent again, exactly one arrives`, async ({
    page,
  }) => {
    await signedInWithMail(page, [{ from: SENDER, subject: "Hello", text: "Hi" }], provider);
    const recipient = await createIdentity(provider, "Rene");
    const subject = `Undo me ${Date.now()}`;
    const text = "First line.\nSecond line.";
    const received = async () =>
      (await mailboxMessages(recipient)).filter((m) => m.subject === subject).length;

    await page.getByRole("button", { name: "Compose Email" }).first().click();
    let dialog = page.getByRole("dialog", { name: "Compose Email" });
    await dialog.getByLabel("To").fill(recipient.email);
    await dialog.getByLabel("Subject").fill(subject);
    await dialog.getByLabel("Message").fill(text);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await expect(dialog).toBeHidden();

    const sending = toastWith(page, "Sending…");
    await expect(sending).toBeVisible();
    await expect(sending).toContainText("Sending…Undo");
    await sending.getByRole("button", { name: "Undo" }).click();

    dialog = page.getByRole("dialog", { name: "Compose Email" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: `Remove ${recipient.email}` })).toBeVisible();
    await expect(dialog.getByLabel("Subject")).toHaveValue(subject);
    await expectMessageText(dialog, text);

    // Past the delay: the undone mail never goes.
    await moveServerClock(page, 15);
    await page.waitForTimeout(2_500);
    expect(await received()).toBe(0);

    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(toastWith(page, "Sending…")).toBeVisible();
    expect(await received()).toBe(0);
    await moveServerClock(page, 11);
    await expect.poll(received, { timeout: 15_000 }).toBe(1);
    await page.waitForTimeout(2_000);
    expect(await received()).toBe(1);
  });
}
