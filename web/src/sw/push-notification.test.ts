import { describe, expect, it } from "vitest";
import { mailNotification, parseMailPush, readerUrl } from "./push-notification.ts";

describe("a Web Push of new mail as a notification", () => {
  it("shows the sender as title and the subject as body, one tag per mail, opening the reader", () => {
    const push = parseMailPush({
      type: "mail",
      emailId: "e-42",
      from: "Ada Lovelace",
      subject: "Engine notes",
    });
    expect(push).not.toBeNull();
    if (!push) return;
    expect(mailNotification(push)).toEqual({
      title: "Ada Lovelace",
      options: {
        body: "Engine notes",
        tag: "e-42",
        icon: "/icons/icon-192.png",
        badge: "/icons/maskable-192.png",
        data: { url: "/dashboard?email=e-42", emailId: "e-42" },
      },
    });
  });

  it("escapes the id in the reader's address", () => {
    expect(readerUrl("a/b?c=d&e")).toBe("/dashboard?email=a%2Fb%3Fc%3Dd%26e");
    const push = parseMailPush({ type: "mail", emailId: "x&y", from: "A", subject: "S" });
    expect(push && mailNotification(push).options.data.url).toBe("/dashboard?email=x%26y");
  });

  it("says something for an empty sender or subject", () => {
    const push = parseMailPush({ type: "mail", emailId: "1", from: "  ", subject: "" });
    expect(push).not.toBeNull();
    if (!push) return;
    const { title, options } = mailNotification(push);
    expect(title).toBe("New mail");
    expect(options.body).toBe("(no subject)");
  });

  it("cuts a sender's long texts to a line", () => {
    const push = parseMailPush({
      type: "mail",
      emailId: "1",
      from: "F".repeat(5000),
      subject: "S".repeat(5000),
    });
    expect(push?.from).toHaveLength(200);
    expect(push?.subject.endsWith("…")).toBe(true);
    expect(push?.subject).toHaveLength(200);
  });

  it("ignores anything that is not a mail push", () => {
    for (const data of [
      null,
      "mail",
      42,
      [],
      {},
      { type: "calendar", emailId: "1", from: "A", subject: "S" },
      { type: "mail", from: "A", subject: "S" },
      { type: "mail", emailId: "", from: "A", subject: "S" },
      { type: "mail", emailId: 7, from: "A", subject: "S" },
      { type: "mail", emailId: "1", subject: "S" },
      { type: "mail", emailId: "1", from: "A", subject: { text: "S" } },
      { type: "mail", emailId: "i".repeat(513), from: "A", subject: "S" },
    ]) {
      expect(parseMailPush(data), JSON.stringify(data)).toBeNull();
    }
  });

  it("keeps only the four fields, so nothing else a payload carries reaches the screen", () => {
    const push = parseMailPush({ type: "mail", emailId: "1", from: "A", subject: "S", body: "secret" });
    expect(push).toEqual({ type: "mail", emailId: "1", from: "A", subject: "S" });
  });
});
