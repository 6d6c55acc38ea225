import type { Page } from "@playwright/test";
import { expect, PROVIDER_NAMES, test, toastWith } from "./support/auth.ts";
import { api, expectAccessibleDialog, mailboxMessages, signedInWithMail } from "./support/reader-mail.ts";
import { sendAtOnce } from "./support/send-at-once.ts";

/**
 * Issue 36's contacts in the browser, on a Gmail and an Outlook account: suggestions from the
 * person's mail in the To field's listbox, picked with the keyboard into a chip; a malformed
 * address is an invalid chip with an inline error, and nothing reaches the provider until it is
 * removed; an empty To is an inline error too.
 */

const PRIYA = { name: "Priya Shah", address: "priya.shah@example.org" };
const PABLO = { name: "Pablo Diaz", address: "pablo.diaz@example.org" };

async function openCompose(page: Page) {
  await page.getByRole("button", { name: "Compose Email" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Compose Email" });
  await expect(dialog).toBeVisible();
  return dialog;
}

for (const provider of ["gmail", "outlook"] as const) {
  test(`${PROVIDER_NAMES[provider]}: a suggestion picked with the keyboard is sent; a malformed address sends nothing`, async ({
    page,
  }) => {
    // Sign-in, sync, the contacts' rebuild, two sends' worth of checks: more than the default.
    test.setTimeout(90_000);
    const { identity } = await signedInWithMail(
      page,
      [
        { from: PRIYA, subject: "Budget", text: "Numbers attached" },
        { from: PRIYA, subject: "Budget again", text: "Any news?" },
        { from: PABLO, subject: "Hola", text: "Hi" },
      ],
      provider,
    );
    // The contacts are rebuilt shortly after the sync: Priya wrote twice, so she ranks first.
    await expect
      .poll(
        async () => (await api<{ contacts: Array<{ address: string }> }>(page, "/api/contacts?q=p")).contacts,
        {
          timeout: 20_000,
        },
      )
      .toEqual([
        { address: PRIYA.address, name: PRIYA.name },
        { address: PABLO.address, name: PABLO.name },
      ]);
    const sendRequests: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/emails/send")) sendRequests.push(r.url());
    });

    const dialog = await openCompose(page);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    // An empty To: the field says so (and the spec's toast), nothing is sent.
    await expect(dialog.getByRole("alert")).toHaveText("Add at least one recipient");
    await expect(
      toastWith(page, "Missing information: Please fill in recipient, subject, and message"),
    ).toBeVisible();

    const to = dialog.getByRole("combobox", { name: "To" });
    await to.pressSequentially("p");
    const options = dialog.getByRole("listbox", { name: "Suggestions" }).getByRole("option");
    await expect(options).toHaveText([`${PRIYA.name} ${PRIYA.address}`, `${PABLO.name} ${PABLO.address}`]);
    await expect(to).toHaveAttribute("aria-expanded", "true");
    // The first suggestion is highlighted as the list opens (Enter would pick it); the arrows move on.
    await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
    await to.press("ArrowDown");
    await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(to).toHaveAttribute(
      "aria-activedescendant",
      (await options.nth(1).getAttribute("id")) ?? "",
    );
    await to.press("Enter");
    await expect(dialog.getByRole("button", { name: `Remove ${PABLO.address}` })).toBeVisible();
    await expect(to).toHaveValue("");
    await expect(dialog.getByRole("listbox")).toHaveCount(0);
    await expect(dialog.getByRole("alert")).toHaveCount(0);

    // A malformed address: an invalid chip on Tab, the inline error, and Send refused.
    await to.pressSequentially("priya.shah@example");
    await to.press("Tab");
    const problem = '"priya.shah@example" is not a valid email address';
    await expect(dialog.getByRole("alert")).toHaveText(problem);
    await expect(to).toHaveAttribute("aria-invalid", "true");
    await dialog.getByLabel("Subject").fill("Lunch?");
    await dialog.getByLabel("Message").fill("Tomorrow at noon?");
    await expectAccessibleDialog(page);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await expect(toastWith(page, "Send failed")).toContainText(problem);
    await expect(dialog).toBeVisible();
    expect(sendRequests).toEqual([]);
    expect(await mailboxMessages(identity, "SENT")).toEqual([]);

    // Removed, the rest goes out to the picked contact only.
    await dialog.getByRole("button", { name: "Remove priya.shah@example" }).click();
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await sendAtOnce(page);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await expect(toastWith(page, "Email sent")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => (await mailboxMessages(identity, "SENT")).map((m) => [m.subject, m.to]))
      .toEqual([["Lunch?", expect.stringContaining(PABLO.address)]]);
    const sent = await mailboxMessages(identity, "SENT");
    expect(sent[0]?.to).not.toContain(PRIYA.address);
    expect(sendRequests).toHaveLength(1);
  });
}

test("a pasted list becomes chips; Backspace in the empty input removes the last", async ({ page }) => {
  await signedInWithMail(page, [{ from: PRIYA, subject: "Hello", text: "Hi" }]);
  const dialog = await openCompose(page);
  const to = dialog.getByRole("combobox", { name: "To" });
  await to.focus();
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData("text", '"Doe, Jane" <jane@example.org>\nbob@example.org; carol@example.org');
    document.activeElement?.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true }),
    );
  });
  for (const address of ["jane@example.org", "bob@example.org", "carol@example.org"])
    await expect(dialog.getByRole("button", { name: `Remove ${address}` })).toBeVisible();
  await expect(dialog.getByText("Doe, Jane", { exact: true })).toBeVisible();
  await to.press("Backspace");
  await expect(dialog.getByRole("button", { name: "Remove carol@example.org" })).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Remove bob@example.org" })).toBeVisible();
});
