/** Issue 35, conversations: one row per conversation, read whole, the setting, whole-conversation actions. */
import type { Page } from "@playwright/test";
import { acceptCookies } from "./dashboard-fixtures.ts";
import {
  createIdentity,
  EMULATOR_URL,
  expect,
  type MailProvider,
  openDashboardWith,
  sessionOverHttp,
  test,
} from "./support/auth.ts";
import {
  type ConversationMail,
  type ConversationRow,
  conversationMailbox,
  DANA,
  FIRST_TEXT,
  LAST_TEXT,
  labelsOfMessage,
  MY_TEXT,
  QUOTED_LINE,
  SUBJECT,
} from "./support/conversation-mail.ts";
import { api, deliver } from "./support/reader-mail.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

const rows = (page: Page) => page.locator("#inbox [data-email-id]");

async function setConversationView(page: Page, on: boolean): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Connected accounts" });
  const toggle = dialog.getByRole("checkbox", { name: /Conversation view/ });
  await expect(toggle).toBeEnabled();
  if ((await toggle.isChecked()) !== on) await toggle.click();
  await expect(toggle).toBeChecked({ checked: on });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

for (const provider of ["gmail", "outlook"] as const satisfies readonly MailProvider[]) {
  test.describe(provider, () => {
    let mail: ConversationMail;
    test.beforeEach(async ({ page }) => {
      mail = await conversationMailbox(page, provider);
      await openDashboardWith(page, mail.sessionToken);
    });

    test("a conversation with my own reply is one row and reads whole, oldest first", async ({ page }) => {
      await expect(rows(page)).toHaveCount(1);
      const row = rows(page).first();
      await expect(row.getByTestId("row-who")).toHaveText("Dana, me (3)");
      await expect(row).toContainText(LAST_TEXT.slice(0, 20));
      await expect(row).toContainText("(unread)");

      await row.click();
      const dialog = page.getByRole("dialog", { name: SUBJECT });
      await expect(dialog).toBeVisible();
      const messages = dialog.getByRole("list", { name: "Messages" }).getByRole("listitem");
      await expect(messages).toHaveCount(3);
      // Oldest to newest; the read ones are one line each, the unread newest one is open.
      await expect(messages.nth(0).getByRole("button", { expanded: false })).toContainText("Dana Field");
      await expect(messages.nth(0)).toContainText(FIRST_TEXT.slice(0, 20));
      await expect(messages.nth(1).getByRole("button", { expanded: false })).toContainText("Robin");
      const newest = messages.nth(2).getByRole("article");
      await expect(newest).toContainText(LAST_TEXT);
      await expect(newest.getByText(QUOTED_LINE)).toBeHidden();
      await newest.getByRole("button", { name: "Show quoted text" }).click();
      await expect(newest.getByText(QUOTED_LINE)).toBeVisible();
      await newest.getByRole("button", { name: "Hide quoted text" }).click();
      await expect(newest.getByText(QUOTED_LINE)).toBeHidden();

      // My own reply opens on a click.
      await messages.nth(1).getByRole("button", { expanded: false }).click();
      await expect(messages.nth(1).getByRole("article")).toContainText(MY_TEXT);

      // Opening it read the conversation, on the provider too.
      await expect
        .poll(() => labelsOfMessage(mail.identity, mail.last.id), { timeout: 10_000 })
        .not.toContain("UNREAD");

      // Star acts on one message.
      await newest.getByRole("button", { name: "Star", exact: true }).click();
      await expect(newest.getByRole("button", { name: "Unstar" })).toHaveAttribute("aria-pressed", "true");
      await expect
        .poll(() => labelsOfMessage(mail.identity, mail.last.id), { timeout: 10_000 })
        .toContain("STARRED");
      expect(await labelsOfMessage(mail.identity, mail.first.id)).not.toContain("STARRED");

      // Mark as unread acts on the conversation, and the row shows it.
      await dialog
        .getByRole("toolbar", { name: "Conversation actions" })
        .getByRole("button", { name: "Mark as unread" })
        .click();
      await expect
        .poll(() => labelsOfMessage(mail.identity, mail.first.id), { timeout: 10_000 })
        .toContain("UNREAD");
      await page.keyboard.press("Escape");
      await expect(rows(page).first()).toContainText("(unread)");
    });

    test("the setting turns message rows on and off", async ({ page }) => {
      await expect(rows(page)).toHaveCount(1);
      await setConversationView(page, false);
      // One row per message: Dana's two inbox messages, each under its own sender.
      await expect(rows(page)).toHaveCount(2);
      await expect(rows(page).getByTestId("row-who")).toHaveText(["Dana Field", "Dana Field"]);
      // Kept on the server: a reload still shows messages.
      await page.reload();
      await expect(rows(page)).toHaveCount(2);
      await setConversationView(page, true);
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page).first().getByTestId("row-who")).toHaveText("Dana, me (3)");
    });

    test("archive acts on the whole conversation", async ({ page }) => {
      await rows(page).first().click();
      const dialog = page.getByRole("dialog", { name: SUBJECT });
      await expect(dialog.getByRole("list", { name: "Messages" }).getByRole("listitem")).toHaveCount(3);
      await dialog
        .getByRole("toolbar", { name: "Conversation actions" })
        .getByRole("button", { name: "Archive" })
        .click();
      await expect(dialog).toBeHidden();
      await expect(rows(page)).toHaveCount(0);
      for (const message of [mail.first, mail.last])
        await expect
          .poll(() => labelsOfMessage(mail.identity, message.id), { timeout: 10_000 })
          .not.toContain("INBOX");
      // Not back after a reload, in either view.
      await page.reload();
      await expect(page.getByText("No emails", { exact: true })).toBeVisible();
    });
  });
}

test("quoted history in an HTML reply folds behind a toggle", async ({ page }) => {
  const identity = await createIdentity("gmail");
  const first = await deliver(identity, {
    from: DANA,
    subject: "Venue photos",
    text: "Here are the photos of the venue.",
    labelIds: ["INBOX"],
  });
  await deliver(identity, {
    from: DANA,
    subject: "Re: Venue photos",
    html: `<div dir="ltr">One more thing: parking is free.</div><br><div class="gmail_quote"><div class="gmail_attr">On Mon, Dana Field wrote:</div><blockquote class="gmail_quote">Here are the photos of the venue.</blockquote></div>`,
    headers: { "In-Reply-To": first.messageId, References: first.messageId },
  });
  const sessionToken = await sessionOverHttp(page, identity.email);
  await expect
    .poll(
      async () =>
        (
          await api<{ emails: ConversationRow[] }>(page, "/api/emails?view=conversations", sessionToken)
        ).emails.map((e) => e.conversation?.count),
      { timeout: 30_000 },
    )
    .toEqual([2]);
  await openDashboardWith(page, sessionToken);
  await rows(page).first().click();
  const dialog = page.getByRole("dialog", { name: "Venue photos" });
  const newest = dialog.getByRole("article");
  const frame = newest.frameLocator("iframe");
  await expect(frame.getByText("parking is free")).toBeVisible();
  await expect(frame.getByText("On Mon, Dana Field wrote:")).toHaveCount(0);
  await newest.getByRole("button", { name: "Show quoted text" }).click();
  await expect(frame.getByText("On Mon, Dana Field wrote:")).toBeVisible();
});

test("a paperclip marks rows with attachments, in conversation and in message rows", async ({ page }) => {
  const identity = await createIdentity("gmail");
  const res = await fetch(
    `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}/attachment-mail?provider=google`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        from: DANA,
        subject: "Budget with file",
        text: "The budget is attached.",
        files: [{ filename: "Q3 Budget.pdf", mimeType: "application/pdf", size: 2048 }],
      }),
    },
  );
  expect(res.status).toBe(201);
  await deliver(identity, { from: DANA, subject: "No files here", text: "Just words." });
  const sessionToken = await sessionOverHttp(page, identity.email);
  await expect
    .poll(
      async () =>
        (await api<{ emails: ConversationRow[] }>(page, "/api/emails?view=conversations", sessionToken))
          .emails.length,
      { timeout: 30_000 },
    )
    .toBe(2);
  await openDashboardWith(page, sessionToken);
  const withFile = rows(page).filter({ hasText: "Budget with file" });
  const without = rows(page).filter({ hasText: "No files here" });
  for (const on of [true, false]) {
    if (!on) await setConversationView(page, false);
    await expect(withFile.getByRole("img", { name: "Has attachments" })).toBeVisible();
    await expect(without.getByRole("img", { name: "Has attachments" })).toHaveCount(0);
  }
});
