import type { Message } from "@microsoft/microsoft-graph-types";
import { describe, expect, it } from "vitest";
import { FLAG_CATEGORY, type FolderIds, mapGraphMessage } from "./mapper.ts";

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
      bodyText: null,
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
