import type { Page } from "@playwright/test";
import PostalMime from "postal-mime";
import {
  createIdentity,
  EMULATOR_URL,
  expect,
  type MailProvider,
  openDashboardWith,
  sessionOverHttp,
  type TestIdentity,
  test,
  toastWith,
} from "./support/auth.ts";
import { messageLines } from "./support/message-field.ts";
import {
  deliver,
  type EmulatorMessage,
  emailOf,
  mailboxMessages,
  openEmail,
  waitForSynced,
} from "./support/reader-mail.ts";
import { sendAtOnce } from "./support/send-at-once.ts";

/**
 * Issue 36 in Chromium against the emulator, on a Gmail and an Outlook account: Reply all from the
 * reader, then the Cc list of what arrived in a recipient's emulator mailbox; Forward, then the
 * subject and the header block that arrived. Both threaded with the original at the provider.
 */

// Two sign-ins, a sync and two provider round trips per test: more than the default 30 s on a
// loaded machine.
test.describe.configure({ timeout: 120_000 });

/** The parsed message as the emulator stores it (headers and decoded text). */
async function arrived(identity: TestIdentity, message: EmulatorMessage) {
  const provider = identity.provider === "gmail" ? "google" : "microsoft";
  const res = await fetch(
    `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}/messages/${message.id}?provider=${provider}`,
  );
  const { raw } = (await res.json()) as { raw: string };
  return { raw, parsed: await PostalMime.parse(raw) };
}

async function inboxWith(identity: TestIdentity, subject: string): Promise<EmulatorMessage> {
  let found: EmulatorMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailboxMessages(identity, "INBOX")).find((m) => m.subject === subject);
        return found !== undefined;
      },
      { message: `"${subject}" should arrive at ${identity.email}` },
    )
    .toBe(true);
  if (!found) throw new Error("unreachable");
  return found;
}

function original(
  me: TestIdentity,
  sender: TestIdentity,
  to: TestIdentity,
  cc: TestIdentity,
  subject: string,
) {
  return {
    subject,
    raw: [
      `From: Sara Lind <${sender.email}>`,
      // The person's own address in another letter case, twice: Reply all must drop it.
      `To: Me <${me.email.toUpperCase()}>, Carl <${to.email}>`,
      `Cc: Dee <${cc.email}>, ${me.email}, ${to.email}`,
      `Subject: ${subject}`,
      `Message-ID: <${subject.replace(/\W/g, "")}.${Date.now()}@example.org>`,
      `Date: ${new Date().toUTCString()}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "The plan is attached to the wiki.",
    ].join("\r\n"),
  };
}

/** A fresh account of `provider` holding the message `write` makes for its address, signed in. */
async function signedInWith(
  page: Page,
  provider: MailProvider,
  write: (me: TestIdentity) => { subject: string; raw: string },
) {
  const identity = await createIdentity(provider);
  const mail = write(identity);
  const summary = await deliver(identity, { raw: mail.raw });
  const sessionToken = await sessionOverHttp(page, identity.email);
  const emails = await waitForSynced(page, [mail.subject], sessionToken);
  await openDashboardWith(page, sessionToken);
  return { identity, email: emailOf(emails, mail.subject), original: summary };
}

for (const provider of ["gmail", "outlook"] as MailProvider[]) {
  test(`${provider}: Reply all answers everyone but me; the Cc list arrives, threaded`, async ({ page }) => {
    const [sender, carl, dee] = await Promise.all([
      createIdentity("gmail", "Sara"),
      createIdentity("gmail", "Carl"),
      createIdentity("outlook", "Dee"),
    ]);
    const subject = `Offsite plan ${provider}`;
    const {
      identity,
      email,
      original: sent,
    } = await signedInWith(page, provider, (me) => original(me, sender, carl, dee, subject));
    const reader = await openEmail(page, email);
    await reader.getByRole("button", { name: "Reply all", exact: true }).click();
    await expect(reader).toBeHidden();
    const dialog = page.getByRole("dialog", { name: "Reply all" });
    await expect(dialog.getByLabel("From")).toHaveValue(/.+/);
    await expect(dialog.getByLabel("From").locator("option:checked")).toContainText(identity.email);
    // Recipients are chips, each with its remove button (web/src/features/compose/recipients/).
    for (const who of [sender.email, carl.email, dee.email])
      await expect(dialog.getByRole("button", { name: `Remove ${who}` })).toBeVisible();
    await expect(dialog.getByRole("button", { name: /^Remove / })).toHaveCount(3);
    await expect(dialog.getByLabel("Subject")).toHaveValue(`Re: ${subject}`);
    await sendAtOnce(page);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await expect(toastWith(page, "Email sent")).toBeVisible({ timeout: 30_000 });

    // What arrived in Dee's (Outlook) mailbox: Cc is Dee only, never the sender's own address.
    const atDee = await arrived(dee, await inboxWith(dee, `Re: ${subject}`));
    expect(atDee.parsed.cc?.map((a) => a.address?.toLowerCase())).toEqual([dee.email]);
    expect(atDee.parsed.to?.map((a) => a.address?.toLowerCase())).toEqual([sender.email, carl.email]);
    expect(atDee.parsed.inReplyTo).toBe(sent.messageId);
    await inboxWith(carl, `Re: ${subject}`);
    // Threaded at the provider: the sent copy is in the original's thread (Graph: conversation).
    await expect
      .poll(async () => (await mailboxMessages(identity, "SENT")).map((m) => [m.subject, m.threadId]))
      .toEqual([[`Re: ${subject}`, sent.threadId]]);
  });

  test(`${provider}: Forward sends 'Fwd:' with the header block and the original text, threaded`, async ({
    page,
  }) => {
    const [sender, carl, dee, finn] = await Promise.all([
      createIdentity("gmail", "Sara"),
      createIdentity("gmail", "Carl"),
      createIdentity("gmail", "Dee"),
      createIdentity("gmail", "Finn"),
    ]);
    const subject = `Budget review ${provider}`;
    const {
      identity,
      email,
      original: sent,
    } = await signedInWith(page, provider, (me) => original(me, sender, carl, dee, subject));
    const reader = await openEmail(page, email);
    await reader.getByRole("button", { name: "Forward", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Forward" });
    await expect(dialog.getByLabel("To")).toHaveValue("");
    await expect(dialog.getByLabel("Subject")).toHaveValue(`Fwd: ${subject}`);
    // The header block, one line per block in the editor.
    const lines = messageLines(dialog);
    await expect(lines.filter({ hasText: "---------- Forwarded message ---------" })).toHaveCount(1);
    await expect(lines.filter({ hasText: `From: Sara Lind <${sender.email}>` })).toHaveCount(1);
    await expect(lines.filter({ hasText: /^Date: .+/ })).toHaveCount(1);
    await expect(lines.filter({ hasText: `Subject: ${subject}` })).toHaveCount(1);
    await dialog.getByLabel("To").fill(finn.email);
    await sendAtOnce(page);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await expect(toastWith(page, "Email sent")).toBeVisible({ timeout: 30_000 });

    const atFinn = await arrived(finn, await inboxWith(finn, `Fwd: ${subject}`));
    expect(atFinn.parsed.subject).toBe(`Fwd: ${subject}`);
    const text = atFinn.parsed.text ?? "";
    expect(text).toContain("---------- Forwarded message ---------");
    expect(text).toContain(`From: Sara Lind <${sender.email}>`);
    expect(text).toContain(`Subject: ${subject}`);
    expect(text).toContain("The plan is attached to the wiki.");
    await expect
      .poll(async () => (await mailboxMessages(identity, "SENT")).map((m) => [m.subject, m.threadId]))
      .toEqual([[`Fwd: ${subject}`, sent.threadId]]);
  });
}
