import { describe, expect, it } from "vitest";
import { emailListResponseSchema } from "../../contract/mail.ts";
import { apiSuite } from "../test/api-suite.ts";
import { BACKENDS } from "../test/databases.ts";
import { createAccount, createEmail, signedInUser } from "../test/factories.ts";

const DAY = 24 * 60 * 60 * 1000;

describe.each(BACKENDS)("search operators on %s", (kind) => {
  const suite = apiSuite(kind);
  const { api } = suite;

  /** Every id a search answers (all pages), sorted, so a test compares sets. */
  async function search(token: string, q: string, extra = ""): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 20; i++) {
      const r = await api(
        "GET",
        `/api/emails?limit=2&q=${encodeURIComponent(q)}${extra}${cursor ? `&cursor=${cursor}` : ""}`,
        token,
      );
      expect(r.status, q).toBe(200);
      const page = emailListResponseSchema.parse(r.json);
      ids.push(...page.emails.map((e) => e.id));
      cursor = page.nextCursor;
      if (!cursor) return ids.sort();
    }
    throw new Error("pagination did not end");
  }

  /** A person with one Gmail and one Outlook account and mail whose every field tells it apart. */
  async function mailbox() {
    const { user, account: gmail, token } = await signedInUser(suite.db, { email: "me@gmail.com" });
    const outlook = await createAccount(suite.db, user.id, { provider: "outlook", email: "me@outlook.com" });
    const now = Date.now();
    const budget = await createEmail(suite.db, gmail, {
      fromName: "Priya Shah",
      fromAddress: "priya.shah@gmail.com",
      toRecipients: [{ name: "Me", address: "me@gmail.com" }],
      ccRecipients: [{ name: "Dana Whitfield", address: "dana@acme-corp.com" }],
      subject: "Q3 Budget review",
      snippet: "Numbers for the quarterly review attached",
      bodyText: "Numbers for the quarterly review attached. The marmalade recipe is below.",
      attachments: [{ filename: "Q3 Budget.pdf", mimeType: "application/pdf", size: 412_000 }],
      hasAttachments: true,
      isRead: false,
      receivedAt: new Date(Date.UTC(2026, 2, 10, 9)),
    });
    const lunch = await createEmail(suite.db, outlook, {
      fromName: "Zoltan Kovacs",
      fromAddress: "zoltan@contoso.example",
      toRecipients: [
        { name: "Me", address: "me@outlook.com" },
        { name: "Priya Shah", address: "priya.shah@gmail.com" },
      ],
      subject: "Lunch on Friday",
      snippet: "Shall we try the new place",
      bodyText: "Shall we try the new place? Bring the budget notes.",
      isRead: true,
      isStarred: true,
      receivedAt: new Date(now - 2 * DAY),
    });
    const archived = await createEmail(suite.db, outlook, {
      toRecipients: [{ name: "Accounts", address: "accounts@outlook.com" }],
      fromName: "Acme Billing",
      fromAddress: "billing@acme-corp.com",
      subject: "Invoice 42",
      snippet: "Your invoice for March",
      bodyText: "Your invoice for March is attached as a spreadsheet.",
      attachments: [{ filename: "invoice-42.xlsx", mimeType: "application/vnd.ms-excel", size: 9_000 }],
      hasAttachments: true,
      isRead: true,
      inInbox: false,
      receivedAt: new Date(Date.UTC(2026, 1, 20, 15)),
    });
    const newsletter = await createEmail(suite.db, gmail, {
      fromName: "Weekly Digest",
      fromAddress: "digest@news.example",
      toRecipients: [{ name: "Readers", address: "list@news.example" }],
      subject: "This week: budget tips and the marmalade recipe",
      snippet: "Ten ways to save",
      bodyText: "Ten ways to save on groceries.",
      // An inline logo only: a file name, but no attachment a person would call one.
      attachments: [{ filename: "logo.png", mimeType: "image/png", size: 2_000, inline: true }],
      hasAttachments: false,
      isRead: false,
      receivedAt: new Date(now - 40 * DAY),
    });
    return { user, token, gmail, outlook, budget, lunch, archived, newsletter };
  }

  it("answers each operator with exactly the matching mail, across both providers", async () => {
    const m = await mailbox();
    const s = (q: string, extra?: string) => search(m.token, q, extra);
    const ids = (...rows: Array<{ id: string }>) => rows.map((r) => r.id).sort();

    // from: an address or a part of it, a name or a part of it.
    expect(await s("from:priya")).toEqual(ids(m.budget));
    expect(await s("from:priya.shah@gmail.com")).toEqual(ids(m.budget));
    expect(await s("from:Shah")).toEqual(ids(m.budget));
    expect(await s('from:"Zoltan Kovacs"')).toEqual(ids(m.lunch));
    expect(await s("from:contoso.example")).toEqual(ids(m.lunch));
    expect(await s("from:gmail.com")).toEqual(ids(m.budget));
    // A word in the body or the recipients is not the sender.
    expect(await s("from:marmalade")).toEqual([]);
    expect(await s("from:me")).toEqual([]);
    // to: and cc: read their own recipients.
    expect(await s("to:priya")).toEqual(ids(m.lunch));
    expect(await s("to:me@outlook.com")).toEqual(ids(m.lunch));
    expect(await s("to:me")).toEqual(ids(m.budget, m.lunch));
    expect(await s("cc:dana")).toEqual(ids(m.budget));
    expect(await s("cc:acme-corp.com")).toEqual(ids(m.budget));
    expect(await s("cc:priya")).toEqual([]);
    // subject: only the subject.
    expect(await s("subject:budget")).toEqual(ids(m.budget, m.newsletter));
    expect(await s('subject:"budget review"')).toEqual(ids(m.budget));
    expect(await s("subject:numbers")).toEqual([]);
    // has:attachment reads has_attachments (inline parts do not count); filename: every part's name.
    expect(await s("has:attachment")).toEqual(ids(m.budget));
    expect(await s("has:attachment in:archive")).toEqual(ids(m.archived));
    expect(await s("filename:pdf")).toEqual(ids(m.budget));
    expect(await s('filename:"Q3 Budget.pdf"')).toEqual(ids(m.budget));
    expect(await s("filename:logo")).toEqual(ids(m.newsletter));
    expect(await s("filename:budget.pdf")).toEqual(ids(m.budget));
    // is:
    expect(await s("is:unread")).toEqual(ids(m.budget, m.newsletter));
    expect(await s("is:read")).toEqual(ids(m.lunch));
    expect(await s("is:starred")).toEqual(ids(m.lunch));
    // in: looks past the inbox; plain searches keep to it as before.
    expect(await s("in:archive")).toEqual(ids(m.archived));
    expect(await s("in:inbox")).toEqual(ids(m.budget, m.lunch, m.newsletter));
    expect(await s("invoice")).toEqual([]);
    expect(await s("invoice", "&includeArchived=true")).toEqual(ids(m.archived));
    expect(await s("invoice in:archive")).toEqual(ids(m.archived));
    // Dates: before: exclusive, after: inclusive, UTC days.
    expect(await s("before:2026/03/10")).toEqual([]);
    expect(await s("before:2026/03/11 in:inbox")).toEqual(ids(m.budget));
    expect(await s("after:2026/03/10 before:2026/03/11")).toEqual(ids(m.budget));
    expect(await s("after:2026/02/20 in:archive")).toEqual(ids(m.archived));
    expect(await s("after:2026/02/21 in:archive")).toEqual([]);
    expect(await s("newer_than:7d")).toEqual(ids(m.lunch));
    expect(await s("older_than:7d newer_than:2m")).toEqual(ids(m.newsletter));
    // Words, phrases and exclusions combine with operators.
    expect(await s("budget from:zoltan")).toEqual(ids(m.lunch));
    expect(await s("budget -from:priya")).toEqual(ids(m.lunch, m.newsletter));
    expect(await s('"marmalade recipe"')).toEqual(ids(m.budget, m.newsletter));
    expect(await s('"recipe marmalade"')).toEqual([]);
    expect(await s("marmalade -quarterly")).toEqual(ids(m.newsletter));
    expect(await s("is:unread -has:attachment")).toEqual(ids(m.newsletter));
    expect(await s("-in:inbox")).toEqual(ids(m.archived));
    expect(await s("bud is:unread")).toEqual([]);
    expect(await s("is:unread bud")).toEqual(ids(m.budget, m.newsletter));
    // The API's own filters still apply.
    expect(await s("is:read", `&accountId=${m.outlook.id}`)).toEqual(ids(m.lunch));
  });

  it("searches bad and unknown operators as plain words, never an error", async () => {
    const m = await mailbox();
    const s = (q: string) => search(m.token, q);
    const other = await createEmail(suite.db, m.gmail, {
      subject: "Label work and new things",
      snippet: "label work",
      bodyText: "The label: work plan",
      receivedAt: new Date(Date.now() - 3 * DAY),
    });
    expect(await s("label:work")).toEqual([other.id]);
    for (const q of [
      "is:important",
      "has:drive",
      "in:spam",
      "before:2026/02/30",
      "newer_than:2w",
      "from:",
      "from:@@",
      'subject:"',
      "a:b:c",
      "-",
      "-from:",
      'from:"\\',
      "from:'",
      "filename:\\'",
      "subject:a&b|!c:*",
    ]) {
      const r = await api("GET", `/api/emails?q=${encodeURIComponent(q)}`, m.token);
      expect(r.status, q).toBe(200);
      emailListResponseSchema.parse(r.json);
    }
  });

  it("never finds another person's mail", async () => {
    const m = await mailbox();
    const { account, token } = await signedInUser(suite.db);
    await createEmail(suite.db, account, {
      fromName: "Priya Shah",
      fromAddress: "priya.shah@gmail.com",
      subject: "Q3 Budget review",
      attachments: [{ filename: "Q3 Budget.pdf", mimeType: "application/pdf", size: 1 }],
      hasAttachments: true,
      isStarred: true,
    });
    const mine = await search(m.token, "from:priya has:attachment filename:pdf");
    expect(mine).toEqual([m.budget.id]);
    expect(await search(token, "from:priya is:starred")).toHaveLength(1);
  });

  it("answers operator soup within the 200-character cap quickly", async () => {
    const m = await mailbox();
    const soup = [
      "from:a ".repeat(28),
      '-from:"a b" '.repeat(16),
      'filename:"'.repeat(20),
      "is:unread has:attachment ".repeat(8),
      "newer_than:999999y ".repeat(10),
      "before:2026/01/01 after:1999/01/01 ".repeat(5),
      "subject:'\\' ".repeat(16),
    ];
    for (const q of soup) {
      const started = performance.now();
      const r = await api("GET", `/api/emails?q=${encodeURIComponent(q.slice(0, 200))}`, m.token);
      expect(r.status, q).toBe(200);
      expect(performance.now() - started, q).toBeLessThan(1_000);
    }
  });
});
