import type { AttachmentInfo } from "./security/attachments.ts";

export interface AnalyzerAddress {
  name: string;
  address: string;
}

/** One email as the analyzer reads it (a subset of ProviderMessage plus a few raw headers). */
export interface AnalyzerInput {
  from: AnalyzerAddress;
  to?: readonly AnalyzerAddress[];
  cc?: readonly AnalyzerAddress[];
  replyTo?: readonly AnalyzerAddress[];
  subject: string;
  bodyText: string | null;
  bodyHtml: string | null;
  snippet?: string;
  /** When it arrived; relative dates ("tomorrow") are resolved against it. */
  receivedAt?: Date;
  headers?: {
    listUnsubscribe?: string | null;
    listId?: string | null;
    precedence?: string | null;
    autoSubmitted?: string | null;
    authenticationResults?: string | null;
    inReplyTo?: string | null;
  };
  attachments?: readonly AttachmentInfo[];
}

export type PriorityHandling = "low" | "medium" | "high";

/** What the caller knows about the user and the sender; all optional. */
export interface AnalyzerContext {
  /** The user's own addresses, to tell "to me" from "cc me". */
  userAddresses?: readonly string[];
  /** VIP contacts from the agent's preferences: addresses or bare domains. */
  vipContacts?: readonly string[];
  /** The user has corresponded with this sender before. */
  isKnownContact?: boolean;
  /** How the user treats this sender's mail. */
  senderStats?: { repliedCount: number; archivedUnreadCount: number };
  /** The agent's email_behavior.priority_handling: how readily mail is raised. */
  priorityHandling?: PriorityHandling;
  /** Domains of the user's contacts (lookalike check). */
  contactDomains?: readonly string[];
  /** People at the user's own organisation (name and work address): their names on a stranger's address are an impersonation. */
  colleagues?: ReadonlyArray<{ name: string; address: string }>;
  /** "Now" for deadline distances; defaults to receivedAt, else the epoch (pure: no clock). */
  now?: Date;
}
