import { randomBytes } from "node:crypto";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import PostalMime from "postal-mime";
import {
  createIdentity,
  EMULATOR_URL,
  expect,
  type MailProvider,
  type TestIdentity,
  test,
  toastWith,
} from "./support/auth.ts";
import { emailOf, mailboxMessages, openEmail, signedInWithMail } from "./support/reader-mail.ts";
import { sendAtOnce } from "./support/send-at-once.ts";

/**
 * Issue 36, attachments in compose, in Chromium against the real server and the emulator, on a
 * Gmail and an Outlook account: the file picker, a progress bar per file (uploads throttled so it
 * shows), Remove <file name>, Send, and the exact bytes in the recipient's emulator mailbox.
 */
const SENDER = { name: "Ola Berg", address: "ola.berg@example.org" };

async function openCompose(page: Page) {
  await page.getByRole("button", { name: "Compose Email" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Compose Email" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The raw message the recipient's emulator mailbox holds for a subject, parsed. */
async function received(identity: TestIdentity, subject: string) {
  let id: string | undefined;
  await expect
    .poll(async () => {
      id = (await mailboxMessages(identity)).find((m) => m.subject === subject)?.id;
      return id;
    })
    .toBeTruthy();
  const provider = identity.provider === "gmail" ? "google" : "microsoft";
  const res = await fetch(
    `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}/messages/${id}?provider=${provider}`,
  );
  const { raw } = (await res.json()) as { raw: string };
  return PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
}

for (const provider of ["gmail", "outlook"] as MailProvider[]) {
  test(`${provider}: attach with the picker, see progress, remove one, send; the bytes arrive`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signedInWithMail(page, [{ from: SENDER, subject: "Hello", text: "Hi" }], provider);
    const recipient = await createIdentity("gmail", "Rita");
    const dialog = await openCompose(page);
    await dialog.getByLabel("To").fill(recipient.email);
    const subject = `Files from ${provider}`;
    await dialog.getByLabel("Subject").fill(subject);
    await dialog.getByLabel("Message").fill("Two files, one removed.");

    // Outlook: over 3 MB, so it goes through a Graph upload session.
    const kept = {
      name: "Plan ✓ 2026.pdf",
      mimeType: "application/pdf",
      buffer: randomBytes(provider === "outlook" ? 3_500_000 : 400_000),
    };
    const dropped = { name: "draft notes.txt", mimeType: "text/plain", buffer: Buffer.from("not this one") };
    // Uploads at about 2 MB/s, so the progress bar is there to see.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 2_000_000,
    });
    await dialog.getByLabel("Attach files").setInputFiles([kept, dropped]);
    await expect(dialog.getByRole("progressbar", { name: kept.name })).toBeVisible();
    await dialog.getByRole("button", { name: `Remove ${dropped.name}` }).click();
    await expect(dialog.getByRole("button", { name: `Remove ${dropped.name}` })).toHaveCount(0);
    await expect(dialog.getByRole("progressbar", { name: kept.name })).toHaveCount(0, { timeout: 20_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect(dialog.getByRole("button", { name: `Remove ${kept.name}` })).toBeVisible();

    await sendAtOnce(page);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await expect(toastWith(page, "Email sent")).toBeVisible({ timeout: 20_000 });
    await expect(dialog).toBeHidden();

    const mail = await received(recipient, subject);
    expect(mail.attachments.map((a) => a.filename)).toEqual([kept.name]);
    const bytes = Buffer.from(new Uint8Array(mail.attachments[0]?.content as ArrayBuffer));
    expect(bytes.equals(kept.buffer)).toBe(true);
  });
}

test("gmail: a file over Gmail's 25 MB is refused in the dialog, naming it and the limit, before any upload", async ({
  page,
}) => {
  const { emails } = await signedInWithMail(page, [
    { from: SENDER, subject: "Send me the image", text: "Hi" },
  ]);
  const reader = await openEmail(page, emailOf(emails, "Send me the image"));
  await reader.getByRole("button", { name: "Reply", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Reply" });
  await expect(dialog).toBeVisible();
  let uploads = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/uploads")) uploads += 1;
  });
  // A file on disk (sparse), which the browser reads by path: 26 MB through the protocol is slow.
  const folder = await mkdtemp(path.join(os.tmpdir(), "mw-e2e-"));
  const big = path.join(folder, "disk.iso");
  await writeFile(big, "");
  await truncate(big, 26 * 1024 * 1024);
  await dialog.getByLabel("Attach files").setInputFiles(big);
  await expect(dialog.getByRole("alert")).toHaveText(
    '"disk.iso" (26 MB) is too large: Gmail allows 25 MB of attachments in all.',
  );
  expect(uploads).toBe(0);
  await dialog.getByRole("button", { name: "Remove disk.iso" }).click();
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await rm(folder, { recursive: true, force: true });
});
