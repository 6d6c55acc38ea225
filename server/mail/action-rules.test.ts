import { describe, expect, it } from "vitest";
import { ACTION_REASONS, type ActionCandidate, actionReason } from "./action-rules.ts";
import { parseRecipients } from "./recipients.ts";

const base: ActionCandidate = {
  fromName: "Priya Shah",
  fromAddress: "priya.shah@gmail.com",
  subject: "Lunch",
  snippet: "Had a great time yesterday.",
  bucket: "personal",
  listUnsubscribe: null,
  aiAnalysis: null,
};
const email = (o: Partial<ActionCandidate>): ActionCandidate => ({ ...base, ...o });

describe("action-item rules", () => {
  it("a plain note from a person needs nothing", () => {
    expect(actionReason(base)).toBeNull();
  });

  it("questions, requests, deadlines and urgency each give their reason", () => {
    expect(actionReason(email({ snippet: "Are you free on Thursday?" }))).toBe(ACTION_REASONS.question);
    expect(actionReason(email({ subject: "Quick question?" }))).toBe(ACTION_REASONS.question);
    expect(actionReason(email({ snippet: "Could you send me the slides" }))).toBe(ACTION_REASONS.request);
    expect(actionReason(email({ snippet: "Please review the draft." }))).toBe(ACTION_REASONS.request);
    expect(actionReason(email({ snippet: "Let me know what works." }))).toBe(ACTION_REASONS.request);
    expect(actionReason(email({ snippet: "I need this by Friday." }))).toBe(ACTION_REASONS.deadline);
    expect(actionReason(email({ subject: "Deadline moved" }))).toBe(ACTION_REASONS.deadline);
    expect(actionReason(email({ subject: "RSVP for the party" }))).toBe(ACTION_REASONS.deadline);
    expect(actionReason(email({ subject: "Action required: sign" }))).toBe(ACTION_REASONS.urgent);
    expect(actionReason(email({ snippet: "This is urgent, please call." }))).toBe(ACTION_REASONS.urgent);
  });

  it("the strongest reason wins: AI importance, then urgency, deadline, question, request", () => {
    expect(actionReason(email({ aiAnalysis: { importance: 7 } }))).toBe(ACTION_REASONS.important);
    expect(actionReason(email({ aiAnalysis: { importance: 6 } }))).toBeNull();
    expect(actionReason(email({ snippet: "Urgent: can you reply by Friday?" }))).toBe(ACTION_REASONS.urgent);
    expect(actionReason(email({ snippet: "Can you reply by Friday?" }))).toBe(ACTION_REASONS.deadline);
    expect(actionReason(email({ snippet: "Could you reply?" }))).toBe(ACTION_REASONS.question);
  });

  it("a reply's subject keeps the old question mark; only its snippet counts", () => {
    expect(actionReason(email({ subject: "Re: Dinner?", snippet: "Sounds good." }))).toBeNull();
    expect(actionReason(email({ subject: "Re: Dinner?", snippet: "Which place?" }))).toBe(
      ACTION_REASONS.question,
    );
  });

  it("newsletters, promotions, social, mailing lists and robots never count", () => {
    const asks = { snippet: "Could you take our survey? Deadline Friday!", aiAnalysis: { importance: 9 } };
    expect(actionReason(email({ ...asks, bucket: "newsletters" }))).toBeNull();
    expect(actionReason(email({ ...asks, bucket: "promotions" }))).toBeNull();
    expect(actionReason(email({ ...asks, bucket: "social" }))).toBeNull();
    expect(actionReason(email({ ...asks, listUnsubscribe: "<https://x.example/u>" }))).toBeNull();
    for (const from of [
      "no-reply@shop.example",
      "noreply@x.io",
      "notifications@github.com",
      "do-not-reply@bank.example",
    ]) {
      expect(actionReason(email({ ...asks, fromAddress: from })), from).toBeNull();
    }
    expect(actionReason(email({ ...asks, bucket: "work" }))).toBe(ACTION_REASONS.important);
  });
});

describe("recipient parsing", () => {
  it("takes commas, semicolons, display names and quoted names with commas", () => {
    const r = parseRecipients('a@x.io; Bo <b@y.io>, "Doe, Jane" <jane@z.io>,');
    expect(r).toEqual({
      ok: true,
      addresses: [
        { name: "", address: "a@x.io" },
        { name: "Bo", address: "b@y.io" },
        { name: "Doe, Jane", address: "jane@z.io" },
      ],
    });
  });

  it("names the first bad entry", () => {
    expect(parseRecipients("a@x.io, not-an-address")).toEqual({ ok: false, bad: "not-an-address" });
    expect(parseRecipients("a@x.io\r\nBcc: evil@x.io")).toMatchObject({ ok: false });
  });
});
