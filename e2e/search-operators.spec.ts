import {
  acceptCookies,
  addMessage,
  addRaw,
  api,
  inboxRows,
  waitForSyncedEmails,
} from "./dashboard-fixtures.ts";
import { createIdentity, expect, type MailProvider, signInOverHttp, test } from "./support/auth.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

const DAY = 24 * 60 * 60 * 1000;
// A one-page PDF's bytes are not the point here, only that the part is a named attachment.
const PDF_BASE64 = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n").toString("base64");

/** A message with one attachment, as raw MIME (the emulator serves it to Gmail and Graph alike). */
function withAttachment(o: {
  from: string;
  to: string;
  subject: string;
  text: string;
  filename: string;
  mimeType: string;
  date: number;
}): string {
  return [
    `From: ${o.from}`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Date: ${new Date(o.date).toUTCString()}`,
    `Message-ID: <${o.date}.${Math.random().toString(36).slice(2)}@search.example>`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="part-boundary"',
    "",
    "--part-boundary",
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.text,
    "--part-boundary",
    `Content-Type: ${o.mimeType}; name="${o.filename}"`,
    `Content-Disposition: attachment; filename="${o.filename}"`,
    "Content-Transfer-Encoding: base64",
    "",
    PDF_BASE64,
    "--part-boundary--",
    "",
  ].join("\r\n");
}

/** Rows' subjects, in list order. */
async function subjects(page: import("@playwright/test").Page): Promise<string[]> {
  return inboxRows(page).evaluateAll((rows) =>
    rows.map((row) => row.querySelectorAll("span.block")[0]?.textContent?.replace(" (unread)", "") ?? ""),
  );
}

for (const provider of ["gmail", "outlook"] as MailProvider[]) {
  test(`operator searches on ${provider} return exactly the expected mail`, async ({ page }) => {
    test.setTimeout(90_000);
    const me = await createIdentity(provider, "Dana");
    const now = Date.now();
    const budgetAt = Date.UTC(2026, 2, 10, 9);
    await addRaw(
      me.email,
      withAttachment({
        from: "Priya Shah <priya.shah@gmail.com>",
        to: `${me.name} <${me.email}>`,
        subject: "Q3 Budget review",
        text: "Numbers for the quarterly review attached. The marmalade recipe is below.",
        filename: "Q3 Budget.pdf",
        mimeType: "application/pdf",
        date: budgetAt,
      }),
      budgetAt,
    );
    await addMessage(me.email, {
      from: { name: "Zoltan Kovacs", address: "zoltan@contoso.example" },
      subject: "Lunch on Friday",
      text: "Shall we try the new place? Bring the budget notes.",
      labelIds: ["INBOX", "STARRED", "CATEGORY_PERSONAL"],
      internalDate: now - 2 * DAY,
    });
    await addMessage(me.email, {
      from: { name: "Weekly Digest", address: "digest@news.example" },
      subject: "This week: budget tips and a marmalade recipe",
      text: "Ten ways to save on groceries.",
      labelIds: ["INBOX", "UNREAD", "CATEGORY_PERSONAL"],
      internalDate: now - 40 * DAY,
    });
    // Archived (no INBOX label; Outlook's Archive folder) and read; recent, as sync takes in mail
    // out of the inbox only for its first weeks.
    const invoiceAt = now - 5 * DAY;
    await fetch(`${process.env.E2E_EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(me.email)}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        raw: withAttachment({
          from: "Acme Billing <billing@acme-corp.example>",
          to: `${me.name} <${me.email}>`,
          subject: "Invoice 42",
          text: "Your invoice for March is attached.",
          filename: "invoice-42.pdf",
          mimeType: "application/pdf",
          date: invoiceAt,
        }),
        labelIds: ["CATEGORY_PERSONAL"],
        internalDate: invoiceAt,
      }),
    }).then((r) => expect(r.status).toBe(201));

    await signInOverHttp(page, me.email);
    await waitForSyncedEmails(page, 3);
    // Archived mail comes with the backfill, after the inbox's first page.
    await expect
      .poll(
        async () => (await api<{ emails: unknown[] }>(page, "/api/emails?q=in%3Aarchive")).emails.length,
        {
          timeout: 30_000,
        },
      )
      .toBe(1);
    await expect(inboxRows(page)).toHaveCount(3);

    const search = page.getByRole("searchbox", { name: "Search all accounts" });
    const expectSearch = async (q: string, expected: string[]) => {
      await search.fill(q);
      await expect.poll(() => subjects(page), { message: q }).toEqual(expected);
    };
    await expectSearch("from:priya", ["Q3 Budget review"]);
    await expectSearch("from:contoso.example", ["Lunch on Friday"]);
    await expectSearch("has:attachment", ["Q3 Budget review"]);
    await expectSearch("filename:pdf in:archive", ["Invoice 42"]);
    await expectSearch("is:unread", ["This week: budget tips and a marmalade recipe", "Q3 Budget review"]);
    await expectSearch("is:starred", ["Lunch on Friday"]);
    await expectSearch("in:archive", ["Invoice 42"]);
    await expectSearch("before:2026/03/11 after:2026/03/10", ["Q3 Budget review"]);
    await expectSearch("newer_than:7d", ["Lunch on Friday"]);
    await expectSearch("budget -marmalade", ["Lunch on Friday"]);
    await expectSearch('"marmalade recipe"', [
      "This week: budget tips and a marmalade recipe",
      "Q3 Budget review",
    ]);
    await expectSearch("budget -from:priya is:unread", ["This week: budget tips and a marmalade recipe"]);
    // An unknown operator is words, not an error.
    await search.fill("label:nothing-like-this");
    await expect(page.locator("#inbox")).toContainText("No emails match “label:nothing-like-this”");
    await search.fill("");
    await expect(inboxRows(page)).toHaveCount(3);
  });
}

test("the search help popover lists the operators", async ({ page }) => {
  const me = await createIdentity("gmail", "Robin");
  await signInOverHttp(page, me.email);
  const help = page.getByRole("button", { name: "Search help" });
  await help.click();
  const popover = page.getByRole("dialog", { name: "Search operators" });
  await expect(popover).toBeVisible();
  for (const op of [
    "from:",
    "has:attachment",
    "is:unread",
    "in:archive",
    "before:",
    "newer_than:",
    '"exact phrase"',
  ])
    await expect(popover).toContainText(op);
  // The mail keys stay off while it is open; Escape closes it and gives focus back.
  await page.keyboard.press("Escape");
  await expect(popover).toBeHidden();
  await expect(help).toBeFocused();
});
