import { createHash } from "node:crypto";

/** Gmail ids are 16 hex digits that grow with time; deriving them from the date keeps that. */
export function gmailId(internalDate: number, seq: number): string {
  return ((BigInt(Math.max(0, internalDate)) << 20n) | BigInt(seq & 0xfffff)).toString(16).padStart(16, "0");
}

/**
 * Outlook ids are long base64 strings that change when a message moves (clients that key rows
 * by id must re-key). Derived from the mailbox, the message and how often it moved.
 */
export function graphId(mailboxKey: string, seq: number, generation: number): string {
  // A hash per mailbox plus the counters: unique, stable, and cheap for 100,000 messages.
  let prefix = mailboxPrefixes.get(mailboxKey);
  if (prefix === undefined) {
    prefix = createHash("sha256").update(mailboxKey).digest("base64url").slice(0, 43);
    mailboxPrefixes.set(mailboxKey, prefix);
  }
  const counters = Buffer.alloc(8);
  counters.writeUIntBE(seq, 0, 6);
  counters.writeUInt16BE(generation & 0xffff, 6);
  return `AQMkADAwATNiZmYAZC1${prefix}RgAAA${counters.toString("base64url")}AAA=`;
}

const mailboxPrefixes = new Map<string, string>();

export function graphFolderId(mailboxKey: string, folder: string): string {
  const digest = createHash("sha256").update(`${mailboxKey}:folder:${folder}`).digest("base64url");
  return `AQMkADAwATNiZmYAZC1${digest.slice(0, 24)}AAAA==`;
}

export function conversationId(mailboxKey: string, threadId: string): string {
  const digest = createHash("sha256").update(`${mailboxKey}:thread:${threadId}`).digest("base64url");
  return `AQQkADAwATNiZmYAZC1${digest.slice(0, 32)}=`;
}
