import type { ProviderMessage } from "../providers/mail-provider.ts";

/** A plain inbox message as a provider adapter returns it; tests override what they are about. */
export function providerMessage(id: string, overrides: Partial<ProviderMessage> = {}): ProviderMessage {
  return {
    providerId: id,
    threadId: `t-${id}`,
    internetMessageId: `<${id}@example.com>`,
    from: { name: "Ada Lovelace", address: "ada@example.com" },
    to: [{ name: "", address: "me@example.com" }],
    cc: [],
    replyTo: [],
    subject: `Subject ${id}`,
    snippet: "snippet",
    bodyHtml: null,
    bodyText: "Hello",
    receivedAt: new Date("2026-11-20T10:11:12.345Z"),
    isRead: false,
    isStarred: false,
    isFlagged: false,
    inInbox: true,
    isTrashed: false,
    isSpam: false,
    isDraft: false,
    isSent: false,
    labels: ["INBOX"],
    providerCategory: null,
    headers: {
      listUnsubscribe: null,
      listUnsubscribePost: null,
      authenticationResults: null,
      inReplyTo: null,
      references: null,
    },
    attachments: [],
    ...overrides,
  };
}
