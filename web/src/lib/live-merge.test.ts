import { type InfiniteData, QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { Email, EmailListResponse, EmailStats } from "../../../contract/mail.ts";
import { itemsForTest } from "../components/ui/toast-store.ts";
import { applyLiveEvent } from "./live-merge.ts";
import { emailKeys, STATS_KEY } from "./mail-queries.ts";

type Pages = InfiniteData<EmailListResponse, string | null>;

function email(id: string, minutesAgo: number, extra: Partial<Email> = {}): Email {
  return {
    id,
    from: "Pat <pat@example.org>",
    fromName: "Pat",
    fromAddress: "pat@example.org",
    to: "me@example.com",
    cc: "",
    subject: `Subject ${id}`,
    snippet: "",
    bodyHtml: null,
    bodyText: null,
    date: new Date(Date.UTC(2026, 0, 1, 12, 0) - minutesAgo * 60_000).toISOString(),
    isRead: false,
    isStarred: false,
    isFlagged: false,
    isArchived: false,
    bucket: "personal",
    accountId: "acc",
    accountEmail: "me@example.com",
    provider: "gmail",
    threadId: null,
    conversationId: `c-${id}`,
    canUnsubscribe: false,
    hasAttachments: false,
    attachments: [],
    aiAnalysis: null,
    ...extra,
  };
}

function client(pages: Email[][], next: string | null = null) {
  const qc = new QueryClient();
  const data: Pages = {
    pages: pages.map((emails, i) => ({ emails, nextCursor: i === pages.length - 1 ? next : "more" })),
    pageParams: pages.map((_, i) => (i === 0 ? null : String(i))),
  };
  qc.setQueryData(emailKeys.list({}), data);
  qc.setQueryData(emailKeys.list({ bucket: "work" }), {
    pages: [{ emails: [], nextCursor: null }],
    pageParams: [null],
  });
  return qc;
}

const ids = (qc: QueryClient, params = {}) =>
  qc.getQueryData<Pages>(emailKeys.list(params))?.pages.map((p) => p.emails.map((e) => e.id));

describe("live events merged into the query cache", () => {
  it("inserts new mail in date order into the lists it belongs to, and not past the loaded pages", () => {
    const qc = client([[email("a", 1), email("c", 30)], [email("d", 40)]], "cursor");
    applyLiveEvent(qc, "mail.new", {
      emails: [email("new", 0), email("b", 10), email("old", 500), email("w", 5, { bucket: "work" })],
    });
    expect(ids(qc)).toEqual([["new", "a", "w", "b", "c"], ["d"]]);
    expect(ids(qc, { bucket: "work" })).toEqual([["w"]]);
  });

  it("patches a row changed elsewhere and drops one that left the inbox or the lists", () => {
    const qc = client([[email("a", 1), email("b", 2), email("c", 3)]]);
    applyLiveEvent(qc, "mail.changed", {
      ids: ["a", "b", "c"],
      emails: [email("a", 1, { isRead: true }), email("b", 2, { isArchived: true })],
    });
    const [page] = qc.getQueryData<Pages>(emailKeys.list({}))?.pages ?? [];
    expect(page?.emails.map((e) => [e.id, e.isRead])).toEqual([["a", true]]);
  });

  it("applies another tab's action once: this tab's own change coming back moves no count", () => {
    const qc = client([[email("a", 1), email("b", 2)]]);
    const stats = { unreadCount: 2, totalEmails: 2, buckets: { personal: { total: 2, unread: 2 } } };
    qc.setQueryData(STATS_KEY, stats as unknown as EmailStats);
    applyLiveEvent(qc, "mail.changed", { ids: ["a"], change: { isRead: true }, emails: [] });
    expect(qc.getQueryData<EmailStats>(STATS_KEY)?.unreadCount).toBe(1);
    // The same event again (this tab made the change, the server echoes it): nothing moves.
    applyLiveEvent(qc, "mail.changed", { ids: ["a"], change: { isRead: true }, emails: [] });
    expect(qc.getQueryData<EmailStats>(STATS_KEY)?.unreadCount).toBe(1);
    applyLiveEvent(qc, "mail.changed", { ids: ["b"], change: { isArchived: true }, emails: [] });
    expect(ids(qc)).toEqual([["a"]]);
  });
});

describe("a write-back the provider refused after the answer", () => {
  it("puts the rows back as the server has them again and toasts the action's failure", () => {
    // This tab archived "b" optimistically; the provider then refused it.
    const qc = client([[email("a", 1), email("c", 3)]]);
    applyLiveEvent(qc, "write.refused", {
      ids: ["b"],
      action: "archive",
      message: "Archiving the email failed: Reconnect this account to continue.",
      emails: [email("b", 2)],
    });
    expect(ids(qc)).toEqual([["a", "b", "c"]]);
    expect(itemsForTest().at(-1)).toMatchObject({
      title: "Error",
      description: "Failed to archive the email",
    });
  });
});

describe("live events in the Conversation view", () => {
  it("puts a new message at the top as its conversation's row, with the summary grown", () => {
    const qc = new QueryClient();
    const key = emailKeys.list({ view: "conversations" });
    const summary = (id: string, count: number) => ({
      id,
      count,
      participants: "Pat",
      unread: false,
      hasAttachments: false,
    });
    qc.setQueryData(key, {
      pages: [
        {
          emails: [
            { ...email("a", 1, { isRead: true }), conversation: summary("c-a", 1) },
            { ...email("b", 5, { conversationId: "c-x", isRead: true }), conversation: summary("c-x", 2) },
          ],
          nextCursor: null,
        },
      ],
      pageParams: [null],
    });
    applyLiveEvent(qc, "mail.new", {
      emails: [email("reply", 0, { conversationId: "c-x", fromName: "Robin Lee" }), email("solo", 3)],
    });
    const rows = qc.getQueryData<Pages>(key)?.pages[0]?.emails as Array<
      Email & { conversation: { count: number; unread: boolean; participants: string } }
    >;
    expect(rows.map((r) => r.id)).toEqual(["reply", "a", "solo"]);
    expect(rows[0]?.conversation).toMatchObject({ count: 3, unread: true, participants: "Pat, Robin (3)" });
    expect(rows[2]?.conversation).toMatchObject({ count: 1, unread: true });
  });
});
