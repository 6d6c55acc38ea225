import { describe, expect, it } from "vitest";
import type { StoredMessage } from "../mailbox/mailbox.ts";
import { parseGmailQuery } from "./query.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20);

function message(labels: string[], ageDays: number, subject = "hello"): StoredMessage {
  // Only the fields the query reads; the rest of StoredMessage is irrelevant here.
  return {
    labels: new Set(labels),
    internalDate: NOW - ageDays * DAY,
    headers: {
      from: "a@example.com",
      to: "b@example.com",
      cc: "",
      subject,
      listUnsubscribe: "",
      messageId: "",
    },
  } as unknown as StoredMessage;
}

const matches = (q: string, m: StoredMessage) => parseGmailQuery(q, NOW).test(m, () => "");

describe("Gmail search OR", () => {
  it("joins terms into one alternative", () => {
    const q = "in:inbox OR newer_than:3d";
    expect(matches(q, message(["INBOX"], 100))).toBe(true);
    expect(matches(q, message(["SENT"], 1))).toBe(true);
    expect(matches(q, message(["SENT"], 100))).toBe(false);
    // An OR group must not restrict listing to one label's index.
    expect(parseGmailQuery(q, NOW).requiredLabel).toBeUndefined();
  });

  it("binds tighter than the implicit AND", () => {
    const q = "is:unread OR is:starred subject:invoice";
    expect(matches(q, message(["UNREAD"], 1, "Invoice 7"))).toBe(true);
    expect(matches(q, message(["STARRED"], 1, "invoice"))).toBe(true);
    expect(matches(q, message(["UNREAD"], 1, "lunch"))).toBe(false);
    expect(matches(q, message([], 1, "invoice"))).toBe(false);
  });

  it("still ANDs plain terms and keeps a single label as the index hint", () => {
    expect(parseGmailQuery("in:inbox newer_than:3d", NOW).requiredLabel).toBe("INBOX");
    expect(matches("in:inbox newer_than:3d", message(["INBOX"], 10))).toBe(false);
  });
});
