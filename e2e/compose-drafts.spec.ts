import { createIdentity, expect, type MailProvider, test, toastWith } from "./support/auth.ts";
import { deliver, mailboxMessages, signedInWithMail } from "./support/reader-mail.ts";
import { sendAtOnce } from "./support/send-at-once.ts";

/**
 * Issue 36, drafts at the provider, on a Gmail and an Outlook account against the emulator:
 * typing saves a draft in the provider's Drafts about two seconds later, closing says "Draft
 * saved", the Drafts card lists it (and one written in Gmail/Outlook itself) and reopens it, and
 * sending it delivers the mail once and leaves no draft behind.
 */
const SENDER = { name: "Ola Berg", address: "ola.berg@example.org" };

for (const provider of ["gmail", "outlook"] as MailProvider[]) {
  test(`${provider}: autosave, "Draft saved", reopen from Drafts, send removes the draft`, async ({
    page,
  }) => {
    test.slow();
    const recipient = await createIdentity("gmail", "Riley");
    const { identity } = await signedInWithMail(
      page,
      [{ from: SENDER, subject: "Hello", text: "Hi" }],
      provider,
    );
    const foreign = `Written in ${provider} itself`;
    await deliver(identity, {
      raw: `From: ${identity.email}\r\nTo: ${SENDER.address}\r\nSubject: ${foreign}\r\n\r\nnotes from the provider\r\n`,
      labelIds: ["DRAFT"],
    } as { raw: string });
    await page.reload();

    const drafts = page.getByRole("list", { name: "Drafts" });
    // The list is read from the provider after the reload; two shared cores make that slow at times.
    await expect(drafts.getByRole("button", { name: new RegExp(foreign) })).toBeVisible({ timeout: 30_000 });

    // Type; about two seconds after the last key the draft is at the provider.
    const subject = `Quarterly plan (${provider})`;
    await page.getByRole("button", { name: "Compose Email" }).first().click();
    let dialog = page.getByRole("dialog", { name: "Compose Email" });
    await dialog.getByLabel("To").fill(recipient.email);
    await dialog.getByLabel("Subject").fill(subject);
    await dialog.getByLabel("Message").fill("First words");
    await expect
      .poll(async () => (await mailboxMessages(identity, "DRAFT")).map((m) => m.subject), { timeout: 10_000 })
      .toContain(subject);
    await expect(dialog.getByRole("status").filter({ hasText: "Saved to Drafts" })).toBeVisible();

    // More typing, then close: saved first, "Draft saved", still one draft at the provider.
    await dialog.getByLabel("Message").fill("First words, then more");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(toastWith(page, "Draft saved")).toBeVisible();
    await expect(dialog).toBeHidden();
    expect((await mailboxMessages(identity, "DRAFT")).filter((m) => m.subject === subject)).toHaveLength(1);

    // Reopen from the Drafts list: the content comes back.
    await drafts.getByRole("button", { name: new RegExp(subject.replace(/[()]/g, "\\$&")) }).click();
    dialog = page.getByRole("dialog", { name: "Compose Email" });
    await expect(dialog.getByRole("button", { name: `Remove ${recipient.email}` })).toBeVisible();
    await expect(dialog.getByLabel("Subject")).toHaveValue(subject);
    await expect(dialog.getByLabel("Message")).toContainText("First words, then more");

    // Send: delivered once, and the draft is gone at the provider.
    await sendAtOnce(page);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await expect(toastWith(page, "Email sent")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => (await mailboxMessages(identity, "DRAFT")).map((m) => m.subject))
      .not.toContain(subject);
    await expect
      .poll(
        async () => (await mailboxMessages(recipient, "INBOX")).filter((m) => m.subject === subject).length,
      )
      .toBe(1);
    await expect(drafts.getByRole("button", { name: new RegExp(foreign) })).toBeVisible();
    await expect(
      drafts.getByRole("button", { name: new RegExp(subject.replace(/[()]/g, "\\$&")) }),
    ).toHaveCount(0);

    // The draft written at the provider reopens too.
    await drafts.getByRole("button", { name: new RegExp(foreign) }).click();
    dialog = page.getByRole("dialog", { name: "Compose Email" });
    await expect(dialog.getByLabel("Subject")).toHaveValue(foreign);
    await expect(dialog.getByLabel("Message")).toContainText("notes from the provider");
  });
}
