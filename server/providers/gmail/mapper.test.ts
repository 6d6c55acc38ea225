import type { gmail_v1 } from "@googleapis/gmail";
import { describe, expect, it } from "vitest";
import { MAX_BODY_CHARS, MAX_BODY_PART_BYTES, MAX_HTML_TEXT_CHARS } from "../body-text.ts";
import { foldHistory } from "./changes.ts";
import { mapGmailMessage } from "./mapper.ts";
import { MAX_PARTS, missingBodyParts } from "./payload.ts";

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64url");

/** The shape Gmail answers for messages.get?format=full: multipart/mixed > alternative + attachment. */
const FULL: gmail_v1.Schema$Message = {
  id: "18c2f0a1b2c3d4e5",
  threadId: "18c2f0a1b2c3d4e0",
  labelIds: ["INBOX", "UNREAD", "STARRED", "IMPORTANT", "CATEGORY_UPDATES"],
  snippet: "Your order &amp; invoice &#39;#42&#39; is ready",
  historyId: "123456",
  internalDate: "1732190400000",
  sizeEstimate: 5120,
  payload: {
    partId: "",
    mimeType: "multipart/mixed",
    filename: "",
    headers: [
      { name: "From", value: '"Shop, The" <orders@shop.example>' },
      { name: "To", value: "Alex Morgan <alex.morgan@gmail.com>, =?UTF-8?B?WsOrZQ==?= <zoe@example.com>" },
      { name: "Cc", value: "team@shop.example" },
      { name: "Reply-To", value: "support@shop.example" },
      { name: "Subject", value: "=?ISO-8859-1?Q?Votre_commande_exp=E9di=E9e?=" },
      { name: "Message-ID", value: "<order-42@shop.example>" },
      { name: "In-Reply-To", value: "<cart-1@shop.example>" },
      { name: "References", value: "<cart-0@shop.example> <cart-1@shop.example>" },
      { name: "LIST-UNSUBSCRIBE", value: "<https://shop.example/u/1>, <mailto:u@shop.example>" },
      { name: "List-Unsubscribe-Post", value: "List-Unsubscribe=One-Click" },
      { name: "Authentication-Results", value: "mx.google.com; spf=pass; dkim=pass; dmarc=pass" },
    ],
    body: { size: 0 },
    parts: [
      {
        partId: "0",
        mimeType: "multipart/alternative",
        filename: "",
        headers: [{ name: "Content-Type", value: 'multipart/alternative; boundary="b"' }],
        body: { size: 0 },
        parts: [
          {
            partId: "0.0",
            mimeType: "text/plain",
            filename: "",
            headers: [
              { name: "Content-Type", value: "text/plain; charset=iso-8859-1" },
              { name: "Content-Transfer-Encoding", value: "quoted-printable" },
            ],
            // Gmail hands over the transfer-decoded bytes, still in ISO-8859-1.
            body: { size: 22, data: b64(Buffer.from("Commande exp\xe9di\xe9e \x93ok\x94", "latin1")) },
          },
          {
            partId: "0.1",
            mimeType: "text/html",
            filename: "",
            headers: [{ name: "Content-Type", value: 'text/html; charset="UTF-8"' }],
            body: { size: 30, data: b64("<p>Commande expédiée ✓</p>") },
          },
        ],
      },
      {
        partId: "1",
        mimeType: "application/pdf",
        filename: "invoice.pdf",
        headers: [{ name: "Content-Disposition", value: 'attachment; filename="invoice.pdf"' }],
        body: { size: 48213, attachmentId: "ANGjdJ-abc" },
      },
    ],
  },
};

describe("mapGmailMessage", () => {
  it("maps a full message: addresses, decoded subject, bodies in their charsets, attachments, labels", () => {
    const message = mapGmailMessage(FULL);
    expect(message).toMatchObject({
      providerId: "18c2f0a1b2c3d4e5",
      threadId: "18c2f0a1b2c3d4e0",
      internetMessageId: "<order-42@shop.example>",
      from: { name: "Shop, The", address: "orders@shop.example" },
      to: [
        { name: "Alex Morgan", address: "alex.morgan@gmail.com" },
        { name: "Zëe", address: "zoe@example.com" },
      ],
      cc: [{ name: "", address: "team@shop.example" }],
      replyTo: [{ name: "", address: "support@shop.example" }],
      subject: "Votre commande expédiée",
      snippet: "Your order & invoice '#42' is ready",
      bodyText: "Commande expédiée \u201cok\u201d",
      bodyHtml: "<p>Commande expédiée ✓</p>",
      receivedAt: new Date(1732190400000),
      isRead: false,
      isStarred: true,
      // IMPORTANT is Gmail's own guess, not the person's flag (issue 19.2).
      isFlagged: false,
      inInbox: true,
      isTrashed: false,
      isSpam: false,
      isDraft: false,
      isSent: false,
      providerCategory: "updates",
      headers: {
        listUnsubscribe: "<https://shop.example/u/1>, <mailto:u@shop.example>",
        listUnsubscribePost: "List-Unsubscribe=One-Click",
        authenticationResults: "mx.google.com; spf=pass; dkim=pass; dmarc=pass",
        inReplyTo: "<cart-1@shop.example>",
        references: "<cart-0@shop.example> <cart-1@shop.example>",
      },
      attachments: [{ filename: "invoice.pdf", mimeType: "application/pdf", size: 48213 }],
    });
    expect(message.labels).toEqual(FULL.labelIds);
  });

  it("the flag is the mailbox's own flag label, whatever Gmail thinks is important", () => {
    const flagged = { id: "1", internalDate: "5", labelIds: ["INBOX", "Label_7"] };
    expect(mapGmailMessage(flagged, undefined, "Label_7").isFlagged).toBe(true);
    expect(mapGmailMessage(flagged, undefined, "Label_8").isFlagged).toBe(false);
    expect(mapGmailMessage(flagged).isFlagged).toBe(false);
    const important = { id: "2", internalDate: "5", labelIds: ["INBOX", "IMPORTANT"] };
    expect(mapGmailMessage(important, undefined, "Label_7").isFlagged).toBe(false);
  });

  it("gives nulls and empties for what a sparse message lacks, never invented values", () => {
    const message = mapGmailMessage({ id: "1", labelIds: ["SENT", "TRASH"], internalDate: "5" });
    expect(message).toMatchObject({
      threadId: null,
      internetMessageId: null,
      from: { name: "", address: "" },
      to: [],
      subject: "",
      bodyHtml: null,
      bodyText: null,
      isRead: true,
      isSent: true,
      isTrashed: true,
      inInbox: false,
      providerCategory: null,
      attachments: [],
    });
    expect(message.headers.listUnsubscribe).toBeNull();
  });

  it("reads a single-part text/plain message", () => {
    const message = mapGmailMessage({
      id: "2",
      labelIds: ["INBOX"],
      internalDate: "1",
      payload: {
        mimeType: "text/plain",
        headers: [{ name: "Content-Type", value: "text/plain; charset=koi8-r" }],
        body: { size: 6, data: b64(Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4])) },
      },
    });
    expect(message.bodyText).toBe("Привет");
    expect(message.bodyHtml).toBeNull();
  });
});

/** What format=full gives for a message whose bodies are too big to travel inline. */
function bigBodies(text: { size: number; data?: string }, html: { size: number; data?: string }) {
  return {
    id: "18c2f0a1b2c3d4e6",
    labelIds: ["INBOX"],
    internalDate: "1732190400000",
    payload: {
      partId: "",
      mimeType: "multipart/mixed",
      headers: [{ name: "Subject", value: "Big" }],
      body: { size: 0 },
      parts: [
        {
          partId: "0",
          mimeType: "multipart/alternative",
          body: { size: 0 },
          parts: [
            {
              partId: "0.0",
              mimeType: "text/plain",
              filename: "",
              headers: [{ name: "Content-Type", value: "text/plain; charset=iso-8859-1" }],
              body: { attachmentId: "ANGjdJ-text", ...text },
            },
            {
              partId: "0.1",
              mimeType: "text/html",
              filename: "",
              headers: [{ name: "Content-Type", value: "text/html; charset=utf-8" }],
              body: { attachmentId: "ANGjdJ-html", ...html },
            },
          ],
        },
        // A later small text part must not take the big body's place.
        {
          partId: "1",
          mimeType: "text/plain",
          filename: "",
          headers: [{ name: "Content-Type", value: "text/plain" }],
          body: { size: 6, data: b64("footer") },
        },
        {
          partId: "2",
          mimeType: "application/pdf",
          filename: "report.pdf",
          body: { size: 9000, attachmentId: "ANGjdJ-pdf" },
        },
      ],
    },
  } satisfies gmail_v1.Schema$Message;
}

describe("big body parts (body.attachmentId without body.data)", () => {
  const latin1 = Buffer.from("Caf\xe9 ".repeat(60_000), "latin1");
  const html = `<p>${"é".repeat(150_000)}</p>`;

  it("names the body parts to fetch, never attachments, and leaves the bodies null until then", () => {
    const message = bigBodies({ size: latin1.length }, { size: Buffer.byteLength(html) });
    expect(missingBodyParts(message.payload)).toEqual([
      { attachmentId: "ANGjdJ-text", size: latin1.length },
      { attachmentId: "ANGjdJ-html", size: Buffer.byteLength(html) },
    ]);
    const mapped = mapGmailMessage(message);
    expect(mapped.bodyText).toBeNull();
    expect(mapped.bodyHtml).toBeNull();
    expect(mapped.attachments).toMatchObject([
      { filename: "report.pdf", mimeType: "application/pdf", size: 9000, inline: false, contentId: null },
    ]);
    expect(mapped.attachments[0]?.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it("reads the fetched parts whole, each in its own charset", () => {
    const message = bigBodies({ size: latin1.length }, { size: Buffer.byteLength(html) });
    const fetched = new Map([
      ["ANGjdJ-text", b64(latin1)],
      ["ANGjdJ-html", b64(html)],
    ]);
    expect(missingBodyParts(message.payload, fetched)).toEqual([]);
    const mapped = mapGmailMessage(message, fetched);
    expect(mapped.bodyText).toBe("Café ".repeat(60_000));
    expect(mapped.bodyHtml).toBe(html);
  });

  it("does not fetch a part past MAX_BODY_PART_BYTES and caps fetched bodies at MAX_BODY_CHARS", () => {
    const message = bigBodies({ size: MAX_BODY_PART_BYTES + 1 }, { size: MAX_BODY_CHARS + 10 });
    expect(missingBodyParts(message.payload)).toEqual([
      { attachmentId: "ANGjdJ-html", size: MAX_BODY_CHARS + 10 },
    ]);
    const mapped = mapGmailMessage(message, new Map([["ANGjdJ-html", b64("h".repeat(MAX_BODY_CHARS + 10))]]));
    expect(mapped.bodyHtml).toHaveLength(MAX_BODY_CHARS);
    // The text part was too big to fetch, so the text is derived from the HTML (up to its cap).
    expect(mapped.bodyText).toBe("h".repeat(MAX_HTML_TEXT_CHARS));
  });

  it("derives the text of HTML-only mail from its HTML, links kept readable", () => {
    const html = '<p>Your <a href="https://shop.example/o/1">order</a> shipped</p>';
    const message = {
      id: "18c2f0a1b2c3d4e7",
      labelIds: ["INBOX"],
      internalDate: "1732190400000",
      payload: {
        partId: "",
        mimeType: "text/html",
        headers: [{ name: "Content-Type", value: "text/html; charset=utf-8" }],
        body: { size: html.length, data: b64(html) },
      },
    };
    expect(mapGmailMessage(message).bodyHtml).toBe(html);
    expect(mapGmailMessage(message).bodyText).toBe("Your order [https://shop.example/o/1] shipped");
  });

  it("still takes inline data when Gmail sends it", () => {
    const message = bigBodies({ size: 5, data: b64("small") }, { size: 9, data: b64("<b>hi</b>") });
    expect(missingBodyParts(message.payload)).toEqual([]);
    expect(mapGmailMessage(message)).toMatchObject({ bodyText: "small", bodyHtml: "<b>hi</b>" });
  });
});

describe("foldHistory", () => {
  it("keeps the last fate of each message, and deleted stays deleted", () => {
    const fate = foldHistory([
      { id: "10", messagesAdded: [{ message: { id: "a" } }] },
      { id: "11", labelsRemoved: [{ message: { id: "b" }, labelIds: ["UNREAD"] }] },
      { id: "12", messagesDeleted: [{ message: { id: "a" } }] },
      { id: "13", labelsAdded: [{ message: { id: "a" }, labelIds: ["STARRED"] }] },
    ]);
    expect([...fate]).toEqual([
      ["a", "removed"],
      ["b", "upsert"],
    ]);
  });
});

// Issue 34: headers and part trees are the sender's; mapping one message must stay cheap.
describe("mapGmailMessage on hostile messages (bounded work)", () => {
  const plain = (headers: gmail_v1.Schema$MessagePartHeader[], parts?: gmail_v1.Schema$MessagePart[]) =>
    mapGmailMessage({
      id: "hostile",
      labelIds: ["INBOX"],
      internalDate: "1796040000000",
      payload: parts
        ? { mimeType: "multipart/mixed", headers, parts }
        : { mimeType: "text/plain", headers, body: { size: 2, data: b64("hi") } },
    });
  const timed = <T>(run: () => T) => {
    const started = performance.now();
    const value = run();
    return { value, ms: performance.now() - started };
  };

  it("reads megabytes of To, From and encoded Subject quickly, keeping what fits", () => {
    const to = "alex@example.com, ".repeat(200_000);
    const { value, ms } = timed(() =>
      plain([
        { name: "From", value: `${"a".repeat(3_000_000)} <priya@example.com>` },
        { name: "To", value: to },
        { name: "Subject", value: "=?UTF-8?B?SGVsbG8=?= ".repeat(150_000) },
      ]),
    );
    // Generous for a loaded two-core machine: unbounded, these took several seconds.
    expect(ms).toBeLessThan(500);
    expect(value.to.length).toBeGreaterThan(1_000);
    expect(value.to.every((a) => a.address === "alex@example.com")).toBe(true);
    expect(value.subject.startsWith("HelloHello")).toBe(true);
  });

  it("reads at most MAX_PARTS parts of a payload tree", () => {
    const parts = Array.from({ length: 100_000 }, (_, i) => ({
      mimeType: "application/octet-stream",
      filename: `f${i}.bin`,
      body: { size: 1, attachmentId: `a${i}` },
    }));
    const { value } = timed(() => plain([{ name: "From", value: "priya@example.com" }], parts));
    expect(value.attachments.length).toBeLessThan(MAX_PARTS);
    expect(value.attachments[0]?.filename).toBe("f0.bin");
  });
});
