import { describe, expect, it } from "vitest";
import type { Email } from "../../../../contract/mail.ts";
import { formatAddressList, parseAddressList } from "./address-list.ts";
import { initialCompose, withSignature } from "./compose-source.ts";
import { FORWARDED_MESSAGE_SEPARATOR, forwardAttachments, forwardBlock, forwardSubject } from "./forward.ts";
import { ORIGINAL_MESSAGE_SEPARATOR } from "./reply.ts";
import { replyAllFields, replyAllRecipients } from "./reply-all.ts";

describe("address lists", () => {
  it("parses names, quoted commas and bare addresses", () => {
    expect(parseAddressList('Ann <ann@x.io>, "Doe, Jane" <jane@y.io>; bob@z.io, just a name')).toEqual([
      { name: "Ann", address: "ann@x.io" },
      { name: "Doe, Jane", address: "jane@y.io" },
      { name: "", address: "bob@z.io" },
    ]);
  });
  it("formats back, quoting names with separators", () => {
    expect(formatAddressList(parseAddressList('"Doe, Jane" <jane@y.io>, bob@z.io'))).toBe(
      '"Doe, Jane" <jane@y.io>, bob@z.io',
    );
  });
});

describe("reply all", () => {
  const original = {
    fromName: "Ana",
    fromAddress: "ana@example.com",
    to: "Me <me@gmail.test>, Carl <carl@example.com>, ME2@Outlook.test",
    cc: "Dee <dee@example.com>, carl@EXAMPLE.com, me@GMAIL.test, ana@example.com",
  };

  it("answers the sender and the other To recipients, and copies the original Cc", () => {
    const { to, cc } = replyAllRecipients(original, ["me@gmail.test", "me2@outlook.test"]);
    expect(to.map((a) => a.address)).toEqual(["ana@example.com", "carl@example.com"]);
    expect(cc.map((a) => a.address)).toEqual(["dee@example.com"]);
  });

  it("drops every own address whatever its case, across all linked accounts", () => {
    const fields = replyAllFields(original, ["ME@gmail.test", "Me2@outlook.TEST"]);
    expect(fields.to.toLowerCase()).not.toContain("me@gmail.test");
    expect(fields.to.toLowerCase()).not.toContain("me2@outlook.test");
    expect(fields.cc.toLowerCase()).not.toContain("me@gmail.test");
  });

  it("keeps each address once, To winning over Cc", () => {
    const fields = replyAllFields(original, []);
    expect(fields.to).toBe(
      "Ana <ana@example.com>, Me <me@gmail.test>, Carl <carl@example.com>, ME2@Outlook.test",
    );
    expect(fields.cc).toBe("Dee <dee@example.com>");
  });

  it("a mail the person sent to themselves goes back to the sender", () => {
    const self = { fromName: "Me", fromAddress: "me@gmail.test", to: "me@gmail.test", cc: "" };
    expect(replyAllFields(self, ["me@gmail.test"])).toEqual({ to: "Me <me@gmail.test>", cc: "" });
  });
});

describe("forward", () => {
  it("adds Fwd: once and leaves Fwd:/Fw: subjects alone", () => {
    expect(forwardSubject("Budget")).toBe("Fwd: Budget");
    expect(forwardSubject("Fwd: Budget")).toBe("Fwd: Budget");
    expect(forwardSubject("FW: Budget")).toBe("FW: Budget");
    expect(forwardSubject("fwd: Fwd: Budget")).toBe("fwd: Fwd: Budget");
    expect(forwardSubject("Re: Budget")).toBe("Fwd: Re: Budget");
    expect(forwardSubject("Fwdx Budget")).toBe("Fwd: Fwdx Budget");
  });

  const source = {
    from: "Ana <ana@example.com>",
    fromName: "Ana",
    fromAddress: "ana@example.com",
    date: "2026-03-01T10:00:00.000Z",
    subject: "Budget",
    to: "me@gmail.test",
    cc: "",
    bodyText: "Numbers\r\nattached.",
    bodyHtml: "<p>Numbers</p>",
    snippet: "Numbers…",
  };

  it("writes the header block, then the original text", () => {
    expect(
      forwardBlock(
        source,
        (h) => h,
        () => "DATE",
      ),
    ).toBe(
      [
        FORWARDED_MESSAGE_SEPARATOR,
        "From: Ana <ana@example.com>",
        "Date: DATE",
        "Subject: Budget",
        "To: me@gmail.test",
        "",
        "Numbers\nattached.",
      ].join("\n"),
    );
    expect(FORWARDED_MESSAGE_SEPARATOR).toBe("---------- Forwarded message ---------");
  });

  it("adds Cc when the original had one and falls back to the HTML as text", () => {
    const block = forwardBlock(
      { ...source, cc: "dee@example.com", bodyText: null },
      (h) => `T(${h})`,
      () => "D",
    );
    expect(block).toContain("To: me@gmail.test\nCc: dee@example.com\n\nT(<p>Numbers</p>)");
  });

  it("offers the original's attachments, not its inline images", () => {
    const base = {
      mimeType: "x",
      size: 3,
      contentId: null,
      preview: "none",
      isMessage: false,
      url: "",
      inlineUrl: null,
    };
    const refs = forwardAttachments({
      id: "e1",
      attachments: [
        { ...base, id: "a1", filename: "a.pdf", inline: false },
        { ...base, id: "a2", filename: "logo.png", inline: true },
      ] as never,
    });
    expect(refs).toEqual([
      { ref: { kind: "original", emailId: "e1", attachmentId: "a1" }, fileName: "a.pdf", size: 3 },
    ]);
  });
});

describe("compose openings and signatures", () => {
  const email = {
    id: "e1",
    from: "Ana <ana@example.com>",
    fromName: "Ana",
    fromAddress: "ana@example.com",
    to: "me@gmail.test, carl@example.com",
    cc: "dee@example.com",
    subject: "Budget",
    date: "2026-03-01T10:00:00.000Z",
    bodyText: "Numbers.",
    bodyHtml: null,
    snippet: "Numbers.",
    attachments: [],
  } as unknown as Email;

  it("reply all fills To and Cc without the person's own address", () => {
    const { draft } = initialCompose(email, "replyAll", ["ME@gmail.test"], (h) => h);
    expect(draft.to).toBe("Ana <ana@example.com>, carl@example.com");
    expect(draft.cc).toBe("dee@example.com");
    expect(draft.subject).toBe("Re: Budget");
  });

  it("forward leaves To empty and carries the header block", () => {
    const { draft } = initialCompose(email, "forward", [], (h) => h);
    expect(draft.to).toBe("");
    expect(draft.subject).toBe("Fwd: Budget");
    expect(draft.body).toContain(`${FORWARDED_MESSAGE_SEPARATOR}\nFrom: Ana <ana@example.com>\n`);
  });

  it("puts the signature above the quoted text, swaps and removes it", () => {
    const { draft } = initialCompose(email, "reply", [], (h) => h);
    const signed = withSignature(draft.body, "", "Ana\nOps");
    expect(signed).toBe(`\n\n-- \nAna\nOps\n\n${ORIGINAL_MESSAGE_SEPARATOR}\nNumbers.`);
    const swapped = withSignature(signed, "Ana\nOps", "Ana B");
    expect(swapped).toBe(`\n\n-- \nAna B\n\n${ORIGINAL_MESSAGE_SEPARATOR}\nNumbers.`);
    expect(withSignature(swapped, "Ana B", "")).toBe(draft.body);
    const forward = initialCompose(email, "forward", [], (h) => h).draft.body;
    expect(withSignature(forward, "", "S").indexOf("-- \nS")).toBeLessThan(forward.length);
    expect(withSignature(forward, "", "S")).toMatch(/^\n\n-- \nS\n\n---------- Forwarded/);
  });

  it("appends the signature to new mail", () => {
    expect(withSignature("Hello", "", "Ana")).toBe("Hello\n\n-- \nAna");
    expect(withSignature("", "", "Ana")).toBe("\n\n-- \nAna");
  });
});
