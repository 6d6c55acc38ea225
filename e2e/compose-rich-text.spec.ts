/**
 * Rich-text compose (issue 36) on a Gmail and an Outlook account: formatting typed with the
 * keyboard and the toolbar, sent with Ctrl+Enter, and read back from the recipient's mailbox in
 * the emulator as multipart/alternative with the HTML and the text; the account's signature goes
 * in with its own formatting.
 */
import PostalMime from "postal-mime";
import {
  createIdentity,
  EMULATOR_URL,
  expect,
  type MailProvider,
  storedToken,
  test,
  toastWith,
} from "./support/auth.ts";
import { LINK_REFUSED_TEXT } from "./support/message-field.ts";
import { api, mailboxMessages, signedInWithMail } from "./support/reader-mail.ts";
import { sendAtOnce } from "./support/send-at-once.ts";

const SENDER = { name: "Ola Berg", address: "ola.berg@example.org" };

/** The raw RFC 822 text of the recipient's message with this subject, once it arrived. */
async function receivedRaw(email: string, subject: string): Promise<string> {
  let id = "";
  await expect
    .poll(async () => {
      const found = (await mailboxMessages({ provider: "gmail", email, name: "" }, "INBOX")).find(
        (m) => m.subject === subject,
      );
      id = found?.id ?? "";
      return id;
    })
    .not.toBe("");
  const res = await fetch(
    `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(email)}/messages/${id}?provider=google`,
  );
  return ((await res.json()) as { raw: string }).raw;
}

for (const provider of ["gmail", "outlook"] as const satisfies readonly MailProvider[]) {
  test(`${provider}: bold, a link and a list arrive as HTML beside the plain text`, async ({
    page,
  }, info) => {
    // Sign-in, sync, typing and delivery through the emulator: more than the default on a busy machine.
    test.setTimeout(120_000);
    await signedInWithMail(page, [{ from: SENDER, subject: "Welcome", text: "Hi" }], provider);
    const recipient = await createIdentity("gmail", "Rene");
    const subject = `Plan ${provider} ${Date.now()}`;
    // The account's signature, set as rich text (Settings > Connected accounts does the same PUT).
    const { accounts } = await api<{ accounts: { id: string }[] }>(page, "/api/accounts");
    const signature = await page.request.put(`/api/accounts/${accounts[0]?.id}/signature`, {
      data: { html: "<strong>Ola Ops</strong><br>Mailwise" },
      headers: { authorization: `Bearer ${await storedToken(page)}` },
    });
    expect(signature.ok()).toBe(true);

    await page.getByRole("button", { name: "Compose Email" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Compose Email" });
    await dialog.getByLabel("To").fill(recipient.email);
    await dialog.getByLabel("Subject").fill(subject);
    const message = dialog.getByRole("textbox", { name: "Message" });
    // The signature is in the editor as rich text, below where the person writes.
    await expect(message.locator("strong")).toHaveText("Ola Ops");
    // Writing starts on the first line, above the signature.
    await message.locator(":scope > div").first().click();
    await message.pressSequentially("Hello ");
    await page.keyboard.press("Control+b");
    await message.pressSequentially("team");
    await page.keyboard.press("Control+b");
    await expect(dialog.getByRole("button", { name: "Bold" })).toHaveAttribute("aria-pressed", "false");
    await message.pressSequentially(", read the plan");
    for (let i = 0; i < "the plan".length; i++) await page.keyboard.press("Shift+ArrowLeft");

    // Ctrl+K asks for the address; only http(s) and mailto are taken.
    await page.keyboard.press("Control+k");
    const address = dialog.getByLabel("Link address");
    await expect(address).toBeFocused();
    await address.fill("javascript:alert(1)");
    await address.press("Enter");
    await expect(dialog.getByRole("alert")).toHaveText(LINK_REFUSED_TEXT);
    await address.fill("https://example.com/plan");
    await address.press("Enter");
    await expect(address).toHaveCount(0);
    await expect(message.getByRole("link", { name: "the plan" })).toHaveAttribute(
      "href",
      "https://example.com/plan",
    );

    // The caret is back in the message, after the link.
    await expect(message).toBeFocused();
    await page.keyboard.press("Enter");
    await dialog.getByRole("button", { name: "Bulleted list" }).click();
    await message.pressSequentially("milk");
    await page.keyboard.press("Enter");
    await message.pressSequentially("eggs");
    await expect(message.locator("ul > li")).toHaveText(["milk", "eggs"]);
    await expect(message.locator("strong")).toHaveText(["team", "Ola Ops"]);
    await page.screenshot({ path: info.outputPath(`compose-rich-text-${provider}-desktop.png`) });

    await sendAtOnce(page);
    await page.keyboard.press("Control+Enter");
    await expect(toastWith(page, "Email sent")).toBeVisible();
    await expect(dialog).toBeHidden();

    const raw = await receivedRaw(recipient.email, subject);
    expect(raw).toMatch(/^Content-Type: multipart\/alternative/im);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.html).toContain("<strong>team</strong>");
    expect(parsed.html).toMatch(/<a href="https:\/\/example\.com\/plan"[^>]*>the plan<\/a>/);
    expect(parsed.html).toMatch(/<ul><li>(<div>|<p>)?milk/);
    expect(parsed.html).not.toMatch(/javascript:|<script|onclick|data-signature/i);
    // The signature's formatting arrives in the HTML part, after what was written; its text in the text part.
    expect(parsed.html).toMatch(/eggs.*<div>-- ?<\/div>(<div>)?<strong>Ola Ops<\/strong><br ?\/?>Mailwise/s);
    const text = parsed.text ?? "";
    for (const words of ["Hello team, read the plan", "milk", "eggs"]) expect(text).toContain(words);
    // Exchange writes the text part from the HTML, where the delimiter's trailing space is gone.
    expect(text).toMatch(/^-- ?\nOla Ops\nMailwise/m);
    expect(text).not.toContain("<strong>");
  });
}
