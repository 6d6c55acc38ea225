import type { Message } from "@microsoft/microsoft-graph-types";
import { describe, expect, it } from "vitest";
import { MAX_BODY_CHARS } from "../body-text.ts";
import { FLAG_CATEGORY, type FolderIds, mapGraphAttachments, mapGraphMessage } from "./mapper.ts";

const FOLDERS: FolderIds = {
  inbox: "F-inbox",
  archive: "F-archive",
  deleteditems: "F-deleted",
  junkemail: "F-junk",
  sentitems: "F-sent",
  drafts: "F-drafts",
};

/** A Graph message as $select=MESSAGE_SELECT with Prefer html returns it. */
const MESSAGE: Message = {
  id: "AAMkAGI2TG93AAA=",
  conversationId: "AAQkAGI2TG93conv=",
  internetMessageId: "<news-7@news.example>",
  subject: "Weekly news",
  from: { emailAddress: { name: "News Desk", address: "desk@news.example" } },
  sender: { emailAddress: { name: "Mailer", address: "bounce@mailer.example" } },
  toRecipients: [{ emailAddress: { name: "Jordan Lee", address: "jordan.lee@outlook.com" } }],
  ccRecipients: [],
  replyTo: [{ emailAddress: { address: "reply@news.example" } }],
  receivedDateTime: "2026-11-21T09:30:00Z",
  bodyPreview: "This week: ...",
  body: { contentType: "html", content: "<html><body><p>This week</p></body></html>" },
  isRead: true,
  isDraft: false,
  flag: { flagStatus: "flagged" },
  categories: ["Blue category", FLAG_CATEGORY],
  inferenceClassification: "other",
  parentFolderId: "F-inbox",
  hasAttachments: false,
  internetMessageHeaders: [
    { name: "List-Unsubscribe", value: "<https://news.example/u>" },
    { name: "list-unsubscribe-post", value: "List-Unsubscribe=One-Click" },
    { name: "Authentication-Results", value: "spf=pass" },
  ],
};

describe("mapGraphMessage", () => {
  it("maps fields, star (follow-up flag) and flag (our category) independently", () => {
    expect(mapGraphMessage(MESSAGE, FOLDERS)).toEqual({
      providerId: "AAMkAGI2TG93AAA=",
      threadId: "AAQkAGI2TG93conv=",
      internetMessageId: "<news-7@news.example>",
      from: { name: "News Desk", address: "desk@news.example" },
      to: [{ name: "Jordan Lee", address: "jordan.lee@outlook.com" }],
      cc: [],
      replyTo: [{ name: "", address: "reply@news.example" }],
      subject: "Weekly news",
      snippet: "This week: ...",
      bodyHtml: "<html><body><p>This week</p></body></html>",
      bodyText: "This week",
      receivedAt: new Date("2026-11-21T09:30:00Z"),
      isRead: true,
      isStarred: true,
      isFlagged: true,
      inInbox: true,
      isTrashed: false,
      isSpam: false,
      isDraft: false,
      isSent: false,
      labels: ["Blue category", FLAG_CATEGORY],
      providerCategory: "other",
      headers: {
        listUnsubscribe: "<https://news.example/u>",
        listUnsubscribePost: "List-Unsubscribe=One-Click",
        authenticationResults: "spf=pass",
        inReplyTo: null,
        references: null,
      },
      attachments: [],
    });
  });

  it("reads folders, a completed flag and text bodies", () => {
    const trashed = mapGraphMessage(
      {
        ...MESSAGE,
        parentFolderId: "F-deleted",
        flag: { flagStatus: "complete" },
        categories: [],
        body: { contentType: "text", content: "hi" },
      },
      FOLDERS,
    );
    expect(trashed).toMatchObject({
      inInbox: false,
      isTrashed: true,
      isStarred: false,
      isFlagged: false,
      bodyText: "hi",
      bodyHtml: null,
    });
    expect(mapGraphMessage({ ...MESSAGE, parentFolderId: "F-junk" }, FOLDERS).isSpam).toBe(true);
    expect(mapGraphMessage({ ...MESSAGE, parentFolderId: "F-sent" }, FOLDERS).isSent).toBe(true);
  });

  it("falls back to sender and leaves missing headers null", () => {
    const { from: _from, internetMessageHeaders: _headers, ...rest } = MESSAGE;
    const message = mapGraphMessage(rest, FOLDERS);
    expect(message.from).toEqual({ name: "Mailer", address: "bounce@mailer.example" });
    expect(message.headers.listUnsubscribe).toBeNull();
  });
});

describe("mapGraphMessage bodies", () => {
  it("derives bodyText from an HTML body, with readable links", () => {
    const message = mapGraphMessage(
      {
        ...MESSAGE,
        body: {
          contentType: "html",
          content:
            '<html><head><style>.x{}</style></head><body><p>Hi Jordan,</p><p>See <a href="https://news.example/r/1">the report</a>.</p></body></html>',
        },
      },
      FOLDERS,
    );
    expect(message.bodyText).toBe("Hi Jordan,\n\nSee the report [https://news.example/r/1].");
    expect(message.bodyHtml).toContain("<p>Hi Jordan,</p>");
  });

  it("caps text and HTML bodies at the same length as the Gmail path", () => {
    const long = "z".repeat(MAX_BODY_CHARS + 100);
    const text = mapGraphMessage({ ...MESSAGE, body: { contentType: "text", content: long } }, FOLDERS);
    expect(text.bodyText).toHaveLength(MAX_BODY_CHARS);
    const html = mapGraphMessage(
      { ...MESSAGE, body: { contentType: "html", content: `<p>${long}</p>` } },
      FOLDERS,
    );
    expect(html.bodyHtml).toHaveLength(MAX_BODY_CHARS);
    expect(html.bodyText?.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
  });

  it("leaves both bodies null without a body", () => {
    const { body: _body, ...rest } = MESSAGE;
    expect(mapGraphMessage(rest, FOLDERS)).toMatchObject({ bodyHtml: null, bodyText: null });
  });
});

describe("mapGraphAttachments", () => {
  it("maps file, item and inline attachments to the Gmail mapper's shape", () => {
    const attachments = mapGraphAttachments([
      {
        "@odata.type": "#microsoft.graph.fileAttachment",
        id: "AAMkAtt1=",
        name: "invoice.pdf",
        contentType: "application/pdf",
        size: 48213,
        isInline: false,
      } as never,
      {
        id: "AAMkAtt2=",
        name: "logo.png",
        contentType: "Image/PNG; name=logo.png",
        size: 1200,
        isInline: true,
      },
      { id: "AAMkAtt3=", name: "Forwarded", contentType: null, size: 5000 },
      { id: "AAMkAtt4=" },
    ]);
    expect(attachments).toMatchObject([
      { filename: "invoice.pdf", mimeType: "application/pdf", size: 48213, ref: "AAMkAtt1=", inline: false },
      // Inline without a Content-ID: nothing in the HTML can show it, so it is listed as a file.
      { filename: "logo.png", mimeType: "image/png", size: 1200, ref: "AAMkAtt2=", inline: false },
      { filename: "Forwarded", mimeType: "application/octet-stream", size: 5000, contentId: null },
      { filename: "", mimeType: "application/octet-stream", size: 0 },
    ]);
    // Our ids are url-safe, distinct, and the same when Graph renames its ids (a move).
    const ids = attachments.map((a) => a.id ?? "");
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const moved = mapGraphAttachments([
      {
        "@odata.type": "#microsoft.graph.fileAttachment",
        id: "AAMkOther=",
        name: "invoice.pdf",
        size: 48213,
      } as never,
    ]);
    expect(moved[0]?.id).toBe(ids[0]);
    const item = mapGraphAttachments([
      { "@odata.type": "#microsoft.graph.itemAttachment", id: "X", name: "Fwd" } as never,
    ]);
    expect(item[0]?.mimeType).toBe("message/rfc822");
    const cid = mapGraphAttachments([
      {
        "@odata.type": "#microsoft.graph.fileAttachment",
        id: "Y",
        name: "l.png",
        contentType: "image/png",
        isInline: true,
        contentId: "<logo@x>",
      } as never,
    ]);
    expect(cid[0]).toMatchObject({ inline: true, contentId: "logo@x" });
  });

  it("puts the fetched attachments on the message", () => {
    const attachments = [{ filename: "a.pdf", mimeType: "application/pdf", size: 7 }];
    expect(mapGraphMessage({ ...MESSAGE, hasAttachments: true }, FOLDERS, attachments).attachments).toEqual(
      attachments,
    );
  });
});
