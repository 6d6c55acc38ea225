import { acceptCookies } from "./dashboard-fixtures.ts";
import { expect, test } from "./support/auth.ts";
import { remaining, startInboxZero, topCard } from "./support/inbox-zero.ts";
import { labelsOf, mailboxMessages, signedInWithMail } from "./support/reader-mail.ts";

// Spec section 4: the smart archive suggestion and background unsubscribe apply in the mode too.
test.beforeEach(async ({ page }) => acceptCookies(page));

const NEWS = { name: "Weekly Deals", address: "deals@shop.example" };
const OTHER = { name: "Sam", address: "sam@example.com" };

test("in the mode, the 2nd archive from a sender offers Smart Archive; Archive All takes the rest off the stack and the provider's inbox", async ({
  page,
}) => {
  // Newest first in the stack: two of the sender's mails on top, the other sender's below them.
  const { identity, delivered } = await signedInWithMail(page, [
    { from: OTHER, subject: "Unrelated", text: "Hello" },
    { from: NEWS, subject: "Deal three", text: "Three." },
    { from: NEWS, subject: "Deal four", text: "Four." },
    { from: NEWS, subject: "Deal two", text: "Two." },
    { from: NEWS, subject: "Deal one", text: "One." },
  ]);
  await startInboxZero(page);
  await expect(remaining(page)).toHaveText("5 emails to go");
  await expect(topCard(page)).toContainText("Deal one");
  await page.keyboard.press("e");
  await expect(remaining(page)).toHaveText("4 emails to go");
  await expect(page.getByRole("alertdialog", { name: "Smart Archive Suggestion" })).toHaveCount(0);
  await expect(topCard(page)).toContainText("Deal two");
  await page.keyboard.press("e");
  const offer = page.getByRole("alertdialog", { name: "Smart Archive Suggestion" });
  await expect(offer).toBeVisible();
  await expect(offer).toContainText("Weekly Deals");
  // The mode's keys wait while the offer is open.
  await page.keyboard.press("s");
  await offer.getByRole("button", { name: "Archive All" }).click();
  await expect(offer).toBeHidden();

  await expect(remaining(page)).toHaveText("1 email to go");
  await expect(topCard(page)).toContainText("Unrelated");
  for (const subject of ["Deal one", "Deal two", "Deal three", "Deal four"]) {
    const id = delivered.get(subject)?.id ?? "";
    await expect
      .poll(() => labelsOf(identity, id), { timeout: 10_000, message: subject })
      .not.toContain("INBOX");
  }
  const inbox = await mailboxMessages(identity, "INBOX");
  expect(inbox.map((m) => m.subject)).toEqual(["Unrelated"]);
  expect(inbox[0]?.labelIds).not.toContain("STARRED");
});

test("in the mode, archiving a sender being unsubscribed in the background takes all their mail off the stack", async ({
  page,
}) => {
  const listHeaders = { "List-Unsubscribe": "<mailto:leave@shop.example?subject=unsubscribe>" };
  await signedInWithMail(page, [
    { from: OTHER, subject: "Keep me", text: "Hello" },
    { from: NEWS, subject: "Older deals", text: "Old.", headers: listHeaders },
    { from: NEWS, subject: "Newest deals", text: "New.", headers: listHeaders },
  ]);
  await startInboxZero(page);
  await expect(remaining(page)).toHaveText("3 emails to go");
  await expect(topCard(page)).toContainText("Newest deals");
  const mode = page.getByRole("dialog", { name: "Inbox Zero Mode" });
  await mode.getByRole("button", { name: "Unsubscribe", exact: true }).click();
  await page.keyboard.press("e");
  // Both of the sender's mails leave the stack; no smart archive offer is made for them.
  await expect(topCard(page)).toContainText("Keep me");
  await expect(remaining(page)).toHaveText("1 email to go");
  await expect(page.getByRole("alertdialog", { name: "Smart Archive Suggestion" })).toHaveCount(0);
});
