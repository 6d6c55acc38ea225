import { describe, expect, it } from "vitest";
import { BUCKETS } from "../../contract/buckets.ts";
import {
  actionItemsSchema,
  emailListResponseSchema,
  emailSchema,
  emailStatsSchema,
} from "../../contract/mail.ts";
import { apiSuite } from "../test/api-suite.ts";
import { BACKENDS } from "../test/databases.ts";
import { createAccount, createEmail, createEmails, sessionFor, signedInUser } from "../test/factories.ts";
import { encodeCursor } from "./cursor.ts";
import { listQuery } from "./email-lister.ts";

describe.each(BACKENDS)("mail API on %s", (kind) => {
  const suite = apiSuite(kind);
  const { api } = suite;

  async function listAll(token: string, query: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const sep = query ? "&" : "";
      const r = await api("GET", `/api/emails?${query}${sep}${cursor ? `cursor=${cursor}` : ""}`, token);
      expect(r.status).toBe(200);
      const page = emailListResponseSchema.parse(r.json);
      ids.push(...page.emails.map((e) => e.id));
      cursor = page.nextCursor;
      if (!cursor) return ids;
    }
    throw new Error("pagination did not end");
  }

  describe("GET /api/emails", () => {
    it("is newest first, and pages cover every email once, even with equal timestamps", async () => {
      const { account, token } = await signedInUser(suite.db);
      const same = new Date("2026-03-01T10:00:00Z");
      // 23 emails, 10 of them at the very same instant: the id breaks the tie.
      const rows = await createEmails(suite.db, account, 23, (i) => ({
        receivedAt: i < 10 ? same : new Date(same.getTime() - (i + 1) * 60_000),
      }));
      const expected = [...rows]
        .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime() || (a.id < b.id ? 1 : -1))
        .map((r) => r.id);
      const ids = await listAll(token, "limit=4");
      expect(ids).toEqual(expected);
      expect(new Set(ids).size).toBe(23);
    });

    it("answers the contract's shape; bodies only come with the single email", async () => {
      const { account, token } = await signedInUser(suite.db, { email: "me@gmail.com" });
      const row = await createEmail(suite.db, account, {
        fromName: "Priya Shah",
        fromAddress: "priya@example.com",
        toRecipients: [
          { name: "Me", address: "me@gmail.com" },
          { name: "", address: "bo@example.com" },
        ],
        ccRecipients: [{ name: "Cy", address: "cy@example.com" }],
        bodyHtml: "<p>Hi <script>alert(1)</script></p>",
        listUnsubscribe: "<https://example.com/u>",
        aiAnalysis: { importance: 5 },
      });
      const list = await api("GET", "/api/emails", token);
      const [email] = emailListResponseSchema.parse(list.json).emails;
      expect(email).toMatchObject({
        id: row.id,
        from: "Priya Shah <priya@example.com>",
        to: "Me <me@gmail.com>, bo@example.com",
        cc: "Cy <cy@example.com>",
        bodyHtml: null,
        bodyText: null,
        date: row.receivedAt.toISOString(),
        isArchived: false,
        accountEmail: "me@gmail.com",
        provider: "gmail",
        canUnsubscribe: true,
        aiAnalysis: { importance: 5 },
      });
      const one = await api("GET", `/api/emails/${row.id}`, token);
      expect(one.status).toBe(200);
      // The original HTML: the client sanitizes it (DOMPurify in a sandboxed iframe).
      expect(emailSchema.parse(one.json).bodyHtml).toBe("<p>Hi <script>alert(1)</script></p>");
      // Every field of the contract; `pending` only while a write-back awaits the provider, the
      // resurfaced mark only on mail that came back by itself (issue 37).
      const sometimes = new Set(["pending", "resurfacedAt", "resurfaceReason"]);
      const always = Object.keys(emailSchema.shape).filter((key) => !sometimes.has(key));
      expect(Object.keys(one.json).sort()).toEqual(always.sort());
    });

    it("list rows carry the spec's five analysis fields; the single email the whole analysis", async () => {
      const { account, token } = await signedInUser(suite.db);
      const stored = {
        importance: 7,
        category: "work",
        isArchived: false,
        bucketCategory: "work",
        microsoftCategory: null,
        summary: "Quarterly numbers are due Friday.",
        keyPoints: ["Due Friday"],
        security: { verdict: "safe", score: 0, reasons: [] },
      };
      const analysed = await createEmail(suite.db, account, { aiAnalysis: stored });
      const odd = await createEmail(suite.db, account, {
        aiAnalysis: { importance: "high", category: "work" },
      });
      const unanalysed = await createEmail(suite.db, account, { aiAnalysis: null });
      const list = emailListResponseSchema.parse((await api("GET", "/api/emails", token)).json).emails;
      const byId = new Map(list.map((e) => [e.id, e.aiAnalysis]));
      expect(byId.get(analysed.id)).toEqual({
        importance: 7,
        category: "work",
        isArchived: false,
        bucketCategory: "work",
      });
      expect(byId.get(odd.id)).toEqual({ category: "work" });
      expect(byId.get(unanalysed.id)).toBeNull();
      const one = emailSchema.parse((await api("GET", `/api/emails/${analysed.id}`, token)).json);
      const { microsoftCategory: _wrongType, ...whole } = stored;
      expect(one.aiAnalysis).toEqual(whole);
      const none = emailSchema.parse((await api("GET", `/api/emails/${unanalysed.id}`, token)).json);
      expect(none.aiAnalysis).toBeNull();
    });

    it("filters: bucket, account, unread, archived (opt-in), never trash or spam", async () => {
      const { user, account, token } = await signedInUser(suite.db);
      const other = await createAccount(suite.db, user.id, { provider: "outlook" });
      const work = await createEmail(suite.db, account, { bucket: "work", isRead: true });
      const unread = await createEmail(suite.db, account, { bucket: "personal" });
      const archived = await createEmail(suite.db, account, { inInbox: false });
      await createEmail(suite.db, account, { isTrashed: true, inInbox: false });
      await createEmail(suite.db, account, { isSpam: true, inInbox: false });
      await createEmail(suite.db, account, { isDraft: true, inInbox: false });
      const outlook = await createEmail(suite.db, other, { bucket: "work", isRead: true });
      const ids = (q: string) => listAll(token, q).then((l) => [...l].sort());
      expect(await ids("")).toEqual([work.id, unread.id, outlook.id].sort());
      expect(await ids("bucket=work")).toEqual([work.id, outlook.id].sort());
      expect(await ids(`accountId=${other.id}`)).toEqual([outlook.id]);
      expect(await ids("unread=true")).toEqual([unread.id]);
      expect(await ids("unread=false")).toEqual([work.id, outlook.id].sort());
      expect(await ids("includeArchived=true")).toEqual([work.id, unread.id, archived.id, outlook.id].sort());
      const withArchived = emailListResponseSchema.parse(
        (await api("GET", "/api/emails?includeArchived=true", token)).json,
      );
      expect(withArchived.emails.find((e) => e.id === archived.id)?.isArchived).toBe(true);
    });

    it("searches subject, sender and body words, with prefix matching for the last word", async () => {
      const { account, token } = await signedInUser(suite.db);
      const budget = await createEmail(suite.db, account, {
        subject: "Quarterly budget review",
        bodyText: "numbers",
      });
      const sender = await createEmail(suite.db, account, {
        fromName: "Zoltan Kodaly",
        fromAddress: "zk@music.example",
      });
      const body = await createEmail(suite.db, account, {
        subject: "Hello",
        bodyText: "the marmalade recipe you asked",
      });
      await createEmail(suite.db, account, { subject: "Unrelated", bodyText: "nothing here" });
      const search = (q: string) => listAll(token, `q=${encodeURIComponent(q)}`);
      expect(await search("budget")).toEqual([budget.id]);
      expect(await search("quarterly review")).toEqual([budget.id]);
      expect(await search("bud")).toEqual([budget.id]);
      expect(await search("quarterly rev")).toEqual([budget.id]);
      expect(await search("zoltan")).toEqual([sender.id]);
      expect(await search("marmal")).toEqual([body.id]);
      expect(await search('"marmalade recipe"')).toEqual([body.id]);
      expect(await search("budget -numbers")).toEqual([]);
      expect(await search("budget or marmal")).toEqual(expect.arrayContaining([budget.id, body.id]));
      expect(await search("nomatchword")).toEqual([]);
      expect((await search("  ")).length).toBe(4);
      expect(await search("!!!")).toEqual([]);
    });

    // Issue 34: search input is bounded (200 characters, the contract's cap) and no operator
    // soup within it costs more than an ordinary search.
    it("answers pathological searches quickly, and refuses overlong ones", async () => {
      const { account, token } = await signedInUser(suite.db);
      await createEmail(suite.db, account, {
        subject: "Quarterly budget review",
        bodyText: "a ".repeat(5_000),
      });
      const soup = [
        '-"'.repeat(100),
        '"'.repeat(200),
        "or ".repeat(66),
        "-a ".repeat(66),
        "a:* & | ! ( ) <-> ".repeat(10),
        "\\".repeat(200),
        "a".repeat(200),
        "a ".repeat(100),
        "e\u0301".repeat(100),
        "🙂".repeat(100),
      ];
      for (const q of soup) {
        const started = performance.now();
        const r = await api("GET", `/api/emails?q=${encodeURIComponent(q)}`, token);
        expect(r.status, q).toBe(200);
        expect(performance.now() - started, q).toBeLessThan(1_000);
      }
      const tooLong = await api("GET", `/api/emails?q=${"a".repeat(201)}`, token);
      expect(tooLong.status).toBe(400);
      expect(tooLong.json?.error).toMatchObject({ code: "validation_failed" });
      // Past Node's header limit the request never reaches a route: still a 4xx, never a 500.
      const huge = await api("GET", `/api/emails?q=${"a".repeat(100_000)}`, token);
      expect(huge.status).toBeGreaterThanOrEqual(400);
      expect(huge.status).toBeLessThan(500);
    });

    it("rejects bad input with validation_failed naming the field", async () => {
      const { token } = await signedInUser(suite.db);
      for (const [query, field] of [
        ["limit=0", "limit"],
        ["limit=abc", "limit"],
        ["bucket=nope", "bucket"],
        ["accountId=x", "accountId"],
        ["unread=yes", "unread"],
        ["cursor=%21%21", "cursor"],
        [`cursor=${Buffer.from("1|not-a-uuid").toString("base64url")}`, "cursor"],
      ] as const) {
        const r = await api("GET", `/api/emails?${query}`, token);
        expect(r.status, query).toBe(400);
        expect(r.json.error).toMatchObject({
          code: "validation_failed",
          fields: { [field]: expect.any(String) },
        });
      }
    });

    it("uses emails_user_received_idx for a page (no sort of the whole mailbox)", async () => {
      const { user, account } = await signedInUser(suite.db);
      await createEmails(suite.db, account, 2000);
      await suite.database.database.executeSql("analyze emails");
      const statement = listQuery(suite.db, user.id, { limit: 50 }).toSQL();
      const plan = await suite.database.database.executeSql(`explain ${statement.sql}`, statement.params);
      const cursor = encodeCursor({ receivedAt: new Date(), id: user.id });
      const page2 = listQuery(suite.db, user.id, { limit: 50, cursor }).toSQL();
      const plan2 = await suite.database.database.executeSql(`explain ${page2.sql}`, page2.params);
      const text = [...plan.rows, ...plan2.rows]
        .map((r) => (r as Record<string, string>)["QUERY PLAN"])
        .join("\n");
      expect(text).toContain("emails_user_received_idx");
      expect(text).not.toMatch(/\bSort\b/);
    });
  });

  describe("scoping", () => {
    it("another user's email is 404 everywhere, and bulk actions with it change nothing", async () => {
      const a = await signedInUser(suite.db);
      const b = await signedInUser(suite.db);
      const mine = await createEmail(suite.db, a.account, { subject: "Secret plans" });
      const theirs = await createEmail(suite.db, b.account);
      for (const [method, path, body] of [
        ["GET", `/api/emails/${mine.id}`, undefined],
        ["PATCH", `/api/emails/${mine.id}`, { isRead: true }],
        ["DELETE", `/api/emails/${mine.id}`, undefined],
        ["POST", "/api/emails/bulk-action", { action: "archive", emailIds: [theirs.id, mine.id] }],
        ["POST", "/api/emails/unsubscribe", { emailId: mine.id }],
        ["POST", "/api/emails/send", { to: "x@y.io", subject: "s", body: "b", inReplyToId: mine.id }],
      ] as const) {
        const r = await api(method, path, b.token, body);
        expect(r.status, `${method} ${path}`).toBe(404);
        expect((r.json.error as { code: string }).code).toBe("not_found");
      }
      expect(await listAll(b.token, "q=secret")).toEqual([]);
      const still = emailSchema.parse((await api("GET", `/api/emails/${mine.id}`, a.token)).json);
      expect(still).toMatchObject({ isRead: false, isArchived: false });
      const theirsNow = emailSchema.parse((await api("GET", `/api/emails/${theirs.id}`, b.token)).json);
      expect(theirsNow.isArchived).toBe(false);
      expect((await api("GET", "/api/emails/not-a-uuid", a.token)).status).toBe(404);
    });

    it("every mail endpoint needs a session", async () => {
      for (const path of [
        "/api/emails",
        "/api/emails/stats",
        "/api/emails/action-items",
        "/api/emails/sync-status",
      ]) {
        const r = await fetch(`${suite.server.url}${path}`);
        expect(r.status, path).toBe(401);
      }
    });
  });

  describe("validation of actions", () => {
    it("bulk, patch, send and unsubscribe name the bad field", async () => {
      const { account, token } = await signedInUser(suite.db);
      const row = await createEmail(suite.db, account);
      const cases: Array<[string, string, unknown, string]> = [
        ["POST", "/api/emails/bulk-action", { action: "explode", emailIds: [row.id] }, "action"],
        ["POST", "/api/emails/bulk-action", { action: "archive", emailIds: [] }, "emailIds"],
        ["POST", "/api/emails/bulk-action", { action: "archive", emailIds: ["x"] }, "emailIds.0"],
        ["PATCH", `/api/emails/${row.id}`, {}, "body"],
        ["PATCH", `/api/emails/${row.id}`, { isRead: "yes" }, "isRead"],
        ["POST", "/api/emails/send", { to: " ", subject: "s", body: "b" }, "to"],
        ["POST", "/api/emails/send", { to: "a@b.io", subject: "", body: "b" }, "subject"],
        ["POST", "/api/emails/send", { to: "a@b.io", subject: "s", body: "  " }, "body"],
        ["POST", "/api/emails/send", { to: "a@b.io, nope", subject: "s", body: "b" }, "to"],
        ["POST", "/api/emails/send", { to: "a@b.io", cc: "bad", subject: "s", body: "b" }, "cc"],
        ["POST", "/api/emails/send", { to: "a@b.io", bcc: "x@", subject: "s", body: "b" }, "bcc"],
        ["POST", "/api/emails/unsubscribe", { emailId: "nope" }, "emailId"],
        [
          "POST",
          "/api/emails/unsubscribe",
          { emailId: "00000000-0000-4000-8000-000000000000", fromAddress: `${"x".repeat(400)}@b.io` },
          "fromAddress",
        ],
      ];
      for (const [method, path, body, field] of cases) {
        const r = await api(method, path, token, body);
        expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(r.json.error, `${path} ${JSON.stringify(body)}`).toMatchObject({
          code: "validation_failed",
          fields: { [field]: expect.any(String) },
        });
      }
      const missing = await api("POST", "/api/emails/send", token, { to: "", subject: "", body: "" });
      expect(missing.json.error).toMatchObject({
        message: "Missing information: Please fill in recipient, subject, and message",
        fields: { to: "Required", subject: "Required", body: "Required" },
      });
      // Separators alone name no recipient: the same refusal, never a send the provider rejects.
      const separators = await api("POST", "/api/emails/send", token, {
        to: " , ;",
        subject: "s",
        body: "b",
      });
      expect(separators.status).toBe(400);
      expect(separators.json.error).toMatchObject({
        message: "Missing information: Please fill in recipient, subject, and message",
        fields: { to: "Required" },
      });
    });
  });

  describe("GET /api/emails/stats", () => {
    it("counts inbox, unread, read today and per provider", async () => {
      const { user, account, token } = await signedInUser(suite.db);
      const outlook = await createAccount(suite.db, user.id, { provider: "outlook" });
      const now = Date.now();
      await createEmails(suite.db, account, 5, (i) => ({
        isRead: i < 2,
        readAt: i < 2 ? new Date(now - i * 1000) : null,
      }));
      await createEmails(suite.db, outlook, 3, (i) => ({ bucket: i === 0 ? "work" : "newsletters" }));
      await createEmail(suite.db, account, { inInbox: false, isRead: true, readAt: new Date(now) }); // archived, read today
      await createEmail(suite.db, account, { isRead: true, readAt: new Date(now - 3 * 86_400_000) }); // read days ago
      await createEmail(suite.db, account, { isTrashed: true, inInbox: false });
      const r = await api("GET", "/api/emails/stats", token);
      expect(r.status).toBe(200);
      expect(emailStatsSchema.parse(r.json)).toEqual({
        unreadCount: 6,
        totalEmails: 9,
        readToday: 3,
        // No provider total known yet (and none reachable): the local inbox count stands in.
        totalEmailsRemote: 9,
        providerCounts: { gmail: 6, outlook: 3 },
        // Per bucket across accounts, inbox only (issue 19.4: the cards count from here).
        buckets: {
          personal: { total: 6, unread: 3 },
          work: { total: 1, unread: 1 },
          newsletters: { total: 2, unread: 2 },
          promotions: { total: 0, unread: 0 },
          social: { total: 0, unread: 0 },
          other: { total: 0, unread: 0 },
        },
      });
    });

    it("drops a disconnected account at once, though counts are cached for a few seconds", async () => {
      const { user, account, token } = await signedInUser(suite.db);
      const outlook = await createAccount(suite.db, user.id, { provider: "outlook" });
      await createEmails(suite.db, account, 2);
      await createEmails(suite.db, outlook, 4);
      const before = emailStatsSchema.parse((await api("GET", "/api/emails/stats", token)).json);
      expect(before.providerCounts).toEqual({ gmail: 2, outlook: 4 });
      expect((await api("DELETE", `/api/accounts/${outlook.id}`, token)).status).toBe(200);
      const after = emailStatsSchema.parse((await api("GET", "/api/emails/stats", token)).json);
      expect(after.providerCounts).toEqual({ gmail: 2, outlook: 0 });
      expect(after.totalEmails).toBe(2);
    });

    it("answers an empty user with zeros", async () => {
      const { token } = await signedInUser(suite.db);
      expect((await api("GET", "/api/emails/stats", token)).json).toEqual({
        unreadCount: 0,
        totalEmails: 0,
        readToday: 0,
        totalEmailsRemote: 0,
        providerCounts: { gmail: 0, outlook: 0 },
        buckets: Object.fromEntries(BUCKETS.map((b) => [b, { total: 0, unread: 0 }])),
      });
    });
  });

  describe("GET /api/emails/action-items", () => {
    it("lists unread inbox mail from people that asks something, newest first, with reasons", async () => {
      const { account, token } = await signedInUser(suite.db);
      const t = Date.now();
      const question = await createEmail(suite.db, account, {
        snippet: "Are you coming?",
        receivedAt: new Date(t - 1000),
      });
      const deadline = await createEmail(suite.db, account, {
        subject: "Report due by Friday",
        fromName: "Boss",
        fromAddress: "boss@corp.example",
        receivedAt: new Date(t - 2000),
      });
      const ai = await createEmail(suite.db, account, {
        aiAnalysis: { importance: 8 },
        receivedAt: new Date(t - 3000),
      });
      await createEmail(suite.db, account, { snippet: "Are you coming?", isRead: true });
      await createEmail(suite.db, account, { snippet: "Are you coming?", inInbox: false });
      await createEmail(suite.db, account, { snippet: "Want 50% off?", bucket: "promotions" });
      await createEmail(suite.db, account, {
        snippet: "Can you confirm?",
        fromAddress: "no-reply@bank.example",
      });
      await createEmail(suite.db, account, { snippet: "Enjoyed it." });
      const r = await api("GET", "/api/emails/action-items", token);
      expect(actionItemsSchema.parse(r.json)).toEqual({
        count: 3,
        items: [
          {
            id: question.id,
            from: "Pat Sender <pat.sender@example.org>",
            subject: question.subject,
            reason: "Asks you a question",
          },
          {
            id: deadline.id,
            from: "Boss <boss@corp.example>",
            subject: "Report due by Friday",
            reason: "Mentions a deadline",
          },
          {
            id: ai.id,
            from: "Pat Sender <pat.sender@example.org>",
            subject: ai.subject,
            reason: "Marked important by AI",
          },
        ],
      });
    });
  });

  describe("unsubscribe without network", () => {
    it("a bare https link is recorded as manual with the url; no header at all is failed/none", async () => {
      const { account, token } = await signedInUser(suite.db);
      const link = await createEmail(suite.db, account, {
        fromAddress: "News@Letters.example",
        listUnsubscribe: "<https://letters.example/unsub?u=1>",
      });
      const r = await api("POST", "/api/emails/unsubscribe", token, {
        emailId: link.id,
        fromAddress: "x@y.z",
      });
      expect(r.status).toBe(202);
      expect(r.json).toMatchObject({
        senderAddress: "news@letters.example",
        method: "link",
        status: "manual",
        url: "https://letters.example/unsub?u=1",
      });
      const none = await createEmail(suite.db, account, { fromAddress: "plain@people.example" });
      const r2 = await api("POST", "/api/emails/unsubscribe", token, { emailId: none.id });
      expect(r2.json).toMatchObject({ method: "none", status: "failed" });
      const list = await api("GET", "/api/emails/unsubscribe-status", token);
      expect((list.json.requests as unknown[]).length).toBe(2);
      // Asking again updates the sender's one record.
      await api("POST", "/api/emails/unsubscribe", token, { emailId: link.id });
      expect(
        ((await api("GET", "/api/emails/unsubscribe-status", token)).json.requests as unknown[]).length,
      ).toBe(2);
    });
  });

  it("auto-sync queues one sync per active account and answers 202 with their status", async () => {
    const { user, account, token } = await signedInUser(suite.db);
    await createAccount(suite.db, user.id, { provider: "outlook", status: "reauth_required" });
    const r = await api("POST", "/api/emails/auto-sync", token);
    expect(r.status).toBe(202);
    expect(r.json.queued).toBe(1);
    const status = r.json.status as Array<{ accountId: string; status: string }>;
    expect(status.map((s) => s.accountId)).toContain(account.id);
    expect(status.find((s) => s.accountId !== account.id)?.status).toBe("reauth_required");
    const again = await api("GET", "/api/emails/sync-status", token);
    expect(again.status).toBe(200);
    expect((again.json.accounts as unknown[]).length).toBe(2);
  });

  it("a second session of the same user sees the same mail", async () => {
    const { user, account } = await signedInUser(suite.db);
    await createEmail(suite.db, account);
    const token = await sessionFor(suite.db, user.id);
    expect((await listAll(token, "")).length).toBe(1);
  });
});
