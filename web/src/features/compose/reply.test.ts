import { describe, expect, it } from "vitest";
import { replyDraft, replySubject } from "./reply.ts";

const original = {
  fromAddress: "ana@example.com",
  subject: "Budget",
  bodyText: "Numbers attached.",
  bodyHtml: "<p>Numbers <b>attached</b>.</p>",
  snippet: "Numbers…",
};
const asText = (html: string) => `TEXT(${html})`;

describe("reply prefill", () => {
  it("adds Re: once", () => {
    expect(replySubject("Budget")).toBe("Re: Budget");
    expect(replySubject("Re: Budget")).toBe("Re: Budget");
    expect(replySubject("RE: Budget")).toBe("RE: Budget");
  });

  it("quotes the body text first, then the HTML as text, then the snippet", () => {
    expect(replyDraft(original, asText)).toEqual({
      to: "ana@example.com",
      cc: "",
      bcc: "",
      subject: "Re: Budget",
      body: "\n\n--- Original Message ---\nNumbers attached.",
    });
    expect(replyDraft({ ...original, bodyText: null }, asText).body).toBe(
      "\n\n--- Original Message ---\nTEXT(<p>Numbers <b>attached</b>.</p>)",
    );
    expect(replyDraft({ ...original, bodyText: "", bodyHtml: null }, asText).body).toBe(
      "\n\n--- Original Message ---\nNumbers…",
    );
  });
});
