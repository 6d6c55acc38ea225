import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { emailAiAnalysisSchema } from "../../contract/mail.ts";

/**
 * The analysis a list row carries: the Email's aiAnalysis fields (spec section 3) picked out of
 * the stored analysis, absent keys left out. Computed when the analysis is written, not on every
 * page: the same projection in the list query was a quarter of a page's database time on PGlite.
 * jsonb_set, not jsonb_build_object, because a generated column takes only immutable functions.
 */
const listAnalysisExpression = `case when ai_analysis is null then null else jsonb_strip_nulls(${Object.keys(
  emailAiAnalysisSchema.shape,
).reduce(
  (object, key) => `jsonb_set(${object}, '{${key}}', coalesce(ai_analysis -> '${key}', 'null'))`,
  "'{}'::jsonb",
)}) end`;

/** A person using Mailwise. Mail accounts, sessions and memories hang off this row. */
export const users = pgTable("users", {
  id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
  email: text("email").notNull(),
  displayName: text("display_name").notNull(),
  /** trial | personal | professional | enterprise (contract planSchema). */
  plan: text("plan").notNull().default("trial"),
  // The default only covers rows that existed before the column; sign-up sets it from the server clock.
  trialEndsAt: timestamp("trial_ends_at", { withTimezone: true })
    .notNull()
    .default(sql`now() + interval '14 days'`),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** The "Conversation view" setting (issue 35): lists show one row per conversation. */
  conversationView: boolean("conversation_view").notNull().default(true),
  /** "Undo send" (issue 36): seconds a sent mail is held before it goes out (contract SEND_DELAYS). */
  sendDelaySeconds: integer("send_delay_seconds").notNull().default(10),
  /**
   * The person's IANA time zone (issue 37), the browser's by default (the client sends it): "not
   * now" presets (8 AM tomorrow, Saturday, Monday) are computed in it. Null until first told.
   */
  timeZone: text("time_zone"),
});

/**
 * A connected Gmail or Outlook mailbox. Provider tokens are stored only as token-vault
 * ciphertexts. Everything synced from the mailbox references this row with ON DELETE CASCADE,
 * so disconnecting deletes its data.
 */
export const mailAccounts = pgTable(
  "mail_accounts",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** gmail | outlook */
    provider: text("provider").notNull(),
    /** Google `sub` or Graph `/me.id`: stable even when the address changes. */
    providerAccountId: text("provider_account_id").notNull(),
    email: text("email").notNull(),
    displayName: text("display_name").notNull(),
    /** active | reauth_required */
    status: text("status").notNull().default("active"),
    accessTokenCiphertext: text("access_token_ciphertext").notNull(),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenCiphertext: text("refresh_token_ciphertext"),
    scope: text("scope"),
    /**
     * The signature added to mail sent from this account (issue 36, decision 0064): sanitized
     * HTML and its text form. The one place a signature is set; AI drafts read it too.
     */
    signatureHtml: text("signature_html").notNull().default(""),
    signatureText: text("signature_text").notNull().default(""),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One mailbox belongs to one Mailwise user; signing in with it opens that user.
    uniqueIndex("mail_accounts_provider_account_uq").on(t.provider, t.providerAccountId),
    index("mail_accounts_user_idx").on(t.userId),
  ],
);

/**
 * A signed-in browser. Only the SHA-256 of the bearer token is kept. Ended sessions stay as
 * tombstones (ended_at set) for a while so a logged-out token gets "Session invalidated"
 * rather than "Invalid session token".
 */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("sessions_token_hash_uq").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

/**
 * One OAuth authorization request in flight: the single-use state (hashed), the browser flow it
 * is bound to (hashed cookie value), and the PKCE verifier (encrypted) needed for the exchange.
 */
export const oauthStates = pgTable(
  "oauth_states",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    stateHash: text("state_hash").notNull(),
    flowHash: text("flow_hash").notNull(),
    /** gmail | outlook */
    provider: text("provider").notNull(),
    codeVerifierCiphertext: text("code_verifier_ciphertext").notNull(),
    nonce: text("nonce").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    /** Set when a signed-in user is connecting another account. */
    linkUserId: uuid("link_user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The session that started the link; it is ended when the link issues a new one. */
    linkSessionId: uuid("link_session_id").references(() => sessions.id, { onDelete: "set null" }),
    /** sign_in | calendar: a state is redeemed only by the callback of the flow it was made for. */
    purpose: text("purpose").notNull().default("sign_in"),
    /** For calendar flows: the mail account whose calendar is being connected. */
    calendarAccountId: uuid("calendar_account_id").references(() => mailAccounts.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("oauth_states_state_hash_uq").on(t.stateHash)],
);

/**
 * A short-lived, single-use secret handed to one browser (decision 0017): stored as a hash, bound
 * to the browser-flow cookie that was live when it was minted, and spent by one conditional
 * UPDATE. Sign-in's server redirect carries one instead of a session token; a full-page
 * navigation that must act for a signed-in user (connecting a calendar) can carry one too.
 */
export const authTickets = pgTable(
  "auth_tickets",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    ticketHash: text("ticket_hash").notNull(),
    /** What the ticket may be redeemed for; a ticket minted for one purpose never serves another. */
    purpose: text("purpose").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The session the ticket acts for (for a sign-in handoff: the one that started a link). */
    sessionId: uuid("session_id").references(() => sessions.id, { onDelete: "cascade" }),
    flowHash: text("flow_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("auth_tickets_ticket_hash_uq").on(t.ticketHash)],
);

/**
 * emails.conversation_id: md5 of "account:thread" read as a uuid (md5 is immutable, so a stored
 * generated column may use it; it is a key, not a secret), or the row's id without a thread.
 */
export const conversationIdExpression =
  "case when thread_id is null then id else md5(account_id::text || ':' || thread_id)::uuid end";

/**
 * The characters the search_fields vector splits words at, besides the text parser's own: so an
 * address "priya.shah@gmail.com" or a file name "q3-budget.pdf" is words (priya, shah, gmail,
 * com) that from:, to:, cc: and filename: find, where the parser alone keeps one email or file
 * token. search-query.ts splits operator values the same way.
 */
export const SEARCH_FIELD_SEPARATORS = "@.-_+";

const splitWords = (text: string) =>
  `to_tsvector('simple', translate(${text}, '${SEARCH_FIELD_SEPARATORS}', '${" ".repeat(SEARCH_FIELD_SEPARATORS.length)}'))`;

/**
 * The search_fields vector: sender name and address (weight A), To (B) and Cc (C) names and
 * addresses, attachment file names (D). A weight per field lets one GIN index serve four
 * operators (decision 0062).
 */
const searchFieldsExpression = [
  `setweight(${splitWords("from_name || ' ' || from_address")}, 'A')`,
  `setweight(${splitWords("jsonb_path_query_array(to_recipients, '$[*].*')::text")}, 'B')`,
  `setweight(${splitWords("jsonb_path_query_array(cc_recipients, '$[*].*')::text")}, 'C')`,
  `setweight(${splitWords("jsonb_path_query_array(attachments, '$[*].filename')::text")}, 'D')`,
].join(" || ");

/** PostgreSQL full-text vector; drizzle has no built-in column for it. */
const tsvector = customType<{ data: string }>({
  dataType() {
    return "tsvector";
  },
});

export interface StoredAddress {
  name: string;
  address: string;
}

/**
 * One attachment of a stored email: what the reader lists and what a download needs. The fields
 * after size came with migration 0022; rows synced before it lack them until sync refreshes them.
 */
export interface StoredAttachment {
  filename: string;
  mimeType: string;
  size: number;
  /** Our opaque, url-safe id, stable for the email (contract/attachments.ts). */
  id?: string;
  /** Where the provider keeps it: Gmail's partId ("1.2"), Graph's attachment id. */
  ref?: string;
  /** Gmail's body.attachmentId as last seen (it may change; ref finds the part again). */
  fetchId?: string;
  /** Content-ID without angle brackets. */
  contentId?: string | null;
  /** Shown by the HTML body through cid:, not listed as a file. */
  inline?: boolean;
}

/**
 * One synced message. Keyed by (account, provider id); Graph changes ids when a message moves,
 * so sync re-keys rows by internet_message_id. Archived = not in the inbox and not trashed or spam.
 * Columns hold what the spec's Email needs plus what sync, search, unsubscribe and security
 * scanning read later.
 */
export const emails = pgTable(
  "emails",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => mailAccounts.id, { onDelete: "cascade" }),
    providerId: text("provider_id").notNull(),
    threadId: text("thread_id"),
    /**
     * The conversation (contract/conversations.ts): a key of (account, Gmail threadId or Graph
     * conversationId) as a uuid, or the row's own id when the message has no thread. Derived here,
     * so every writer (sync, re-key, tests) agrees without computing it (decision 0061).
     */
    conversationId: uuid("conversation_id").notNull().generatedAlwaysAs(sql.raw(conversationIdExpression)),
    internetMessageId: text("internet_message_id"),
    fromName: text("from_name").notNull().default(""),
    fromAddress: text("from_address").notNull().default(""),
    toRecipients: jsonb("to_recipients").$type<StoredAddress[]>().notNull().default([]),
    ccRecipients: jsonb("cc_recipients").$type<StoredAddress[]>().notNull().default([]),
    replyToRecipients: jsonb("reply_to_recipients").$type<StoredAddress[]>().notNull().default([]),
    subject: text("subject").notNull().default(""),
    snippet: text("snippet").notNull().default(""),
    bodyHtml: text("body_html"),
    bodyText: text("body_text"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    isRead: boolean("is_read").notNull().default(false),
    /** When the user (here or in the provider) last marked it read: the stats' "read today". */
    readAt: timestamp("read_at", { withTimezone: true }),
    isStarred: boolean("is_starred").notNull().default(false),
    isFlagged: boolean("is_flagged").notNull().default(false),
    inInbox: boolean("in_inbox").notNull().default(true),
    isTrashed: boolean("is_trashed").notNull().default(false),
    isSpam: boolean("is_spam").notNull().default(false),
    isDraft: boolean("is_draft").notNull().default(false),
    isSent: boolean("is_sent").notNull().default(false),
    labels: jsonb("labels").$type<string[]>().notNull().default([]),
    /** Gmail category tab or Graph classification, lower-case: the spec's microsoftCategory input. */
    providerCategory: text("provider_category"),
    /** One of the six buckets (contract/buckets.ts); null when the classifier skips the email. */
    bucket: text("bucket"),
    listUnsubscribe: text("list_unsubscribe"),
    listUnsubscribePost: text("list_unsubscribe_post"),
    authenticationResults: text("authentication_results"),
    inReplyTo: text("in_reply_to"),
    referencesHeader: text("references_header"),
    /** Attachment metadata with what a download needs (never the bytes; decision 0060). */
    attachments: jsonb("attachments").$type<StoredAttachment[]>().notNull().default([]),
    /** Any attachment that is not an inline (cid:) part: the list's paperclip and has:attachment. */
    hasAttachments: boolean("has_attachments").notNull().default(false),
    /**
     * The sync_states.generation of the last full pass (or incremental change) that saw this
     * message; rows an entire pass did not see are gone at the provider.
     */
    syncGeneration: integer("sync_generation").notNull().default(0),
    /**
     * When the provider got the user's last change made here (read, star, flag, archive, trash);
     * while the write-back is under way, a time past its longest duration. Sync does not overwrite
     * the row with data it fetched before this moment: that data is older than the user's change,
     * and the provider's change notice (or the sync each write-back requests) brings the newer one.
     */
    localChangeAt: timestamp("local_change_at", { withTimezone: true }),
    /**
     * Set when a write-back of the user's change got no answer in time (PROVIDER_WRITE_TIMEOUT_MS):
     * the provider may or may not have applied it. The row shows the user's change until the
     * settle re-reads the message and stores the provider's state, then this goes back to null.
     */
    writePendingAt: timestamp("write_pending_at", { withTimezone: true }),
    /**
     * When Inbox Zero mode processed this email (archive, star, delete or flag there): it is not
     * offered again. Our own state, never the provider's; sync does not touch it.
     */
    inboxZeroProcessedAt: timestamp("inbox_zero_processed_at", { withTimezone: true }),
    /**
     * Snooze (issue 37): until when the person put this conversation away. Set on every message of
     * the conversation while snoozed; the lists hide it whatever the provider's inbox says, and
     * sync never clears it (only unsnooze and the wake do). Its wake is a `snooze.wake` due action.
     */
    snoozedUntil: timestamp("snoozed_until", { withTimezone: true }),
    /**
     * When the mail came back to the inbox by itself, and why ("snoozed"; "no_reply" for a
     * follow-up reminder): shown as "Snoozed until <time>", and unread such mail heads the inbox.
     */
    resurfacedAt: timestamp("resurfaced_at", { withTimezone: true }),
    resurfaceReason: text("resurface_reason"),
    /** The stored AI analysis (spec section 3); null until analysed. */
    aiAnalysis: jsonb("ai_analysis").$type<Record<string, unknown>>(),
    /** What a list row shows of aiAnalysis (listAnalysisExpression); the reader reads aiAnalysis. */
    listAnalysis: jsonb("list_analysis")
      .$type<Record<string, unknown>>()
      .generatedAlwaysAs(sql.raw(listAnalysisExpression)),
    search: tsvector("search").generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', coalesce(subject, '')), 'A') || setweight(to_tsvector('simple', coalesce(from_name, '') || ' ' || coalesce(from_address, '')), 'B') || setweight(to_tsvector('simple', coalesce(snippet, '') || ' ' || left(coalesce(body_text, ''), 20000)), 'C')`,
    ),
    /** Address and file-name words for the from:, to:, cc: and filename: operators. */
    searchFields: tsvector("search_fields").generatedAlwaysAs(sql.raw(searchFieldsExpression)),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("emails_account_provider_uq").on(t.accountId, t.providerId),
    // The dashboard list: one user's mail newest first, paginated by (received_at, id).
    index("emails_user_received_idx").on(t.userId, t.receivedAt.desc(), t.id.desc()),
    index("emails_user_bucket_received_idx").on(t.userId, t.bucket, t.receivedAt.desc()),
    index("emails_account_message_id_idx").on(t.accountId, t.internetMessageId),
    // The inbox's head: resurfaced mail (a snooze ended) above the rest, a handful of rows at most.
    index("emails_user_resurfaced_idx")
      .on(t.userId, t.resurfacedAt.desc())
      .where(sql`${t.resurfacedAt} is not null`),
    // The Snoozed view and the wake's lookups: only snoozed rows.
    index("emails_user_snoozed_idx").on(t.userId, t.snoozedUntil).where(sql`${t.snoozedUntil} is not null`),
    // The settle after each sync looks for an account's unsettled write-backs: almost always none.
    index("emails_account_write_pending_idx").on(t.accountId).where(sql`${t.writePendingAt} is not null`),
    index("emails_search_idx").using("gin", t.search),
    // Without fastupdate: a sync's thousands of new rows otherwise wait in GIN's pending list, which
    // every search then reads through (PGlite runs no autovacuum to merge it): 27-71 ms for a
    // from:/filename: search finding nothing on a freshly synced 10k mailbox. The vector is small,
    // so inserting into the index directly costs little (decision 0062).
    index("emails_search_fields_idx").using("gin", t.searchFields).with({ fastupdate: false }),
    // is:starred, has:attachment and in:archive: such mail is a small part of a mailbox, so the newest-first
    // walk of the whole mailbox would read most of it to fill a page.
    index("emails_user_starred_idx")
      .on(t.userId, t.receivedAt.desc(), t.id.desc())
      .where(sql`${t.isStarred}`),
    index("emails_user_attachments_idx")
      .on(t.userId, t.receivedAt.desc(), t.id.desc())
      .where(sql`${t.hasAttachments}`),
    // in:archive: mail out of the inbox (archived, and trash, spam, drafts, which the list filters).
    index("emails_user_out_of_inbox_idx")
      .on(t.userId, t.receivedAt.desc(), t.id.desc())
      .where(sql`not ${t.inInbox}`),
    index("emails_user_read_at_idx").on(t.userId, t.readAt),
    // Stats count inbox mail per account, read state and bucket; an index-only scan of this partial
    // index is ~4x faster than reading the table for a 100k mailbox.
    index("emails_user_inbox_counts_idx")
      .on(t.userId, t.accountId, t.isRead, t.bucket)
      .where(sql`${t.inInbox} and not ${t.isTrashed} and not ${t.isSpam}`),
    // Inbox Zero mode: unread inbox mail not yet processed there, newest first (and its count).
    index("emails_inbox_zero_idx")
      .on(t.userId, t.receivedAt.desc(), t.id.desc())
      .where(
        sql`not ${t.isRead} and ${t.inInbox} and not ${t.isTrashed} and not ${t.isSpam} and ${t.inboxZeroProcessedAt} is null`,
      ),
    // The AI analysis job picks a user's not-yet-analysed mail, newest first, 200 at a time.
    index("emails_unanalysed_idx").on(t.userId, t.receivedAt.desc()).where(sql`${t.aiAnalysis} is null`),
    // Each analysis batch counts what the person sent to its senders: without this the count read
    // the whole mailbox per batch (100k mail analysed at 135 emails/s against 570/s at 10k).
    index("emails_user_sent_idx").on(t.userId).where(sql`${t.isSent}`),
    // Conversations: a conversation's messages newest first (the list's one-row-per-conversation
    // check, its summary, the reader), per user so every probe stays in one person's mail.
    index("emails_user_conversation_idx").on(t.userId, t.conversationId, t.receivedAt.desc(), t.id.desc()),
  ],
);

/** Where each account's sync stands: the forward-only cursor, backfill position and progress. */
export const syncStates = pgTable("sync_states", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => mailAccounts.id, { onDelete: "cascade" }),
  /** Gmail historyId or Graph deltaLink; only ever replaced by a newer one. */
  cursor: text("cursor"),
  /** idle | syncing | backfilling | error | reauth_required */
  status: text("status").notNull().default("idle"),
  backfillPageToken: text("backfill_page_token"),
  backfillDone: boolean("backfill_done").notNull().default(false),
  syncedCount: integer("synced_count").notNull().default(0),
  totalEstimate: integer("total_estimate"),
  lastError: text("last_error"),
  lastSyncedAt: timestamp("last_synced_at", { withTimezone: true }),
  pushSubscriptionId: text("push_subscription_id"),
  pushExpiresAt: timestamp("push_expires_at", { withTimezone: true }),
  /** SHA-256 of the clientState we gave Graph; notifications must carry the matching value. */
  pushClientStateHash: text("push_client_state_hash"),
  /**
   * Set when the account is being deleted: its push channel is being stopped, so a renewal in
   * flight must not store a new one (it stops what it made instead).
   */
  pushClosed: boolean("push_closed").notNull().default(false),
  /** Bumped by every full pass (initial sync, resync after an expired cursor). */
  generation: integer("generation").notNull().default(0),
  /** The received-since bound of the running pass, fixed so its pages agree. */
  backfillSince: timestamp("backfill_since", { withTimezone: true }),
  /**
   * A sync job is queued and has not yet taken the lease: further triggers collapse into it, and a
   * running backfill hands the lease over after its page in hand. Stale after a few minutes, so a
   * lost job cannot block the account.
   */
  queuedAt: timestamp("queued_at", { withTimezone: true }),
  /**
   * One sync per account at a time across every worker process: a lease (not a session advisory
   * lock) so it works through a connection pool and on PGlite, and expires if its holder dies.
   */
  leaseOwner: text("lease_owner"),
  leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Unsubscribe status per sender, visible to the user. */
export const unsubscribeRequests = pgTable(
  "unsubscribe_requests",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: uuid("account_id").references(() => mailAccounts.id, { onDelete: "set null" }),
    emailId: uuid("email_id").references(() => emails.id, { onDelete: "set null" }),
    senderAddress: text("sender_address").notNull(),
    /** one_click | mailto | link | none */
    method: text("method").notNull(),
    /** processing | done | failed | manual */
    status: text("status").notNull(),
    /** For manual: the https link the user can open. */
    url: text("url"),
    detail: text("detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("unsubscribe_user_sender_uq").on(t.userId, t.senderAddress)],
);

/**
 * The user's AI agent (spec section 3): one per PERSON, not per mailbox, so it and its memories
 * survive connecting a new work account and disconnecting the old one.
 */
export const agents = pgTable(
  "agents",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    personality: text("personality").notNull().default(""),
    /** contract/ai.ts agentPreferencesSchema, validated on every write. */
    preferences: jsonb("preferences").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("agents_user_uq").on(t.userId)],
);

/**
 * What the agent learned about its person: who matters, how they write, what they ignore, facts
 * from mail. Keyed by (user, kind, key) so repeated observations raise the weight instead of
 * piling up rows. No foreign key to emails or accounts: memories outlive both.
 */
export const agentMemories = pgTable(
  "agent_memories",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** contact | style | ignore | fact */
    kind: text("kind").notNull(),
    /** Normalised identity of the memory (a sender address, a fact's text). */
    key: text("key").notNull(),
    content: text("content").notNull(),
    /** analysis | reply | archive | sent */
    source: text("source").notNull(),
    weight: integer("weight").notNull().default(1),
    /**
     * When the newest mail this memory was learned from was received: the retention job removes a
     * memory once every mail behind it is older than the person's retention (null: not known, the
     * memory's last update stands in).
     */
    mailReceivedAt: timestamp("mail_received_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("agent_memories_user_kind_key_uq").on(t.userId, t.kind, t.key)],
);

/** One drafting or AI request (the agent insights' totalConversations). Never holds mail text. */
export const aiConversations = pgTable(
  "ai_conversations",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** compose | improve | response | analyze | auto_draft */
    kind: text("kind").notNull(),
    engine: text("engine").notNull(),
    emailId: uuid("email_id").references(() => emails.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ai_conversations_user_idx").on(t.userId)],
);

/** Tokens spent per user and model call, for quotas and cost reports. */
export const aiUsage = pgTable(
  "ai_usage",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** analysis | drafting */
    task: text("task").notNull(),
    engine: text("engine").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    /** ok | failed */
    outcome: text("outcome").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ai_usage_user_created_idx").on(t.userId, t.createdAt)],
);

/**
 * The per-user budget of model calls (issue 13.4): one row per user, the current UTC day and
 * minute with their call counts. Every model call takes from it with one conditional upsert, so
 * the limit holds across processes; a window later than the stored one starts again at one.
 */
export const aiBudget = pgTable("ai_budget", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** Start of the UTC day the day count belongs to. */
  day: timestamp("day", { withTimezone: true }).notNull(),
  dayCalls: integer("day_calls").notNull(),
  /** Start of the minute the minute count belongs to. */
  minute: timestamp("minute", { withTimezone: true }).notNull(),
  minuteCalls: integer("minute_calls").notNull(),
});

/**
 * Replies the agent prepared by itself: one per email (idempotent jobs), saved as a provider
 * draft, and sent only for VIP contacts when auto_send is on.
 */
export const agentDrafts = pgTable(
  "agent_drafts",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    emailId: uuid("email_id").references(() => emails.id, { onDelete: "set null" }),
    /** The email's account at the time; kept for the sent list after a disconnect. */
    accountEmail: text("account_email").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    engine: text("engine").notNull(),
    providerDraftId: text("provider_draft_id"),
    /** drafted | sent | failed */
    status: text("status").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("agent_drafts_email_uq").on(t.emailId),
    index("agent_drafts_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * A connected calendar: the primary calendar of one connected mail account, authorised by its own
 * calendar-only consent, so its tokens (vault ciphertexts) are apart from the mail account's.
 * Deleting the mail account, or disconnecting the calendar, deletes it and its events.
 */
export const calendarIntegrations = pgTable(
  "calendar_integrations",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * The mailbox this calendar belongs to; null for a calendar-only connection (a person with
     * only Gmail mailboxes may connect an Outlook calendar, and the other way round).
     */
    accountId: uuid("account_id").references(() => mailAccounts.id, { onDelete: "cascade" }),
    /** google | outlook */
    provider: text("provider").notNull(),
    /** The calendar grant's account at the provider (Google sub, Graph user id). */
    providerAccountId: text("provider_account_id"),
    email: text("email").notNull(),
    /** active | reauth_required */
    status: text("status").notNull().default("active"),
    accessTokenCiphertext: text("access_token_ciphertext").notNull(),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenCiphertext: text("refresh_token_ciphertext"),
    scope: text("scope"),
    /** The provider's id of the synced calendar (Google: the address; Graph: an opaque id). */
    calendarId: text("calendar_id"),
    calendarName: text("calendar_name"),
    calendarTimeZone: text("calendar_time_zone"),
    /** Google nextSyncToken or Graph deltaLink of the last completed round. */
    syncCursor: text("sync_cursor"),
    /** The range the cursor covers; events outside it are read live. */
    syncWindowStart: timestamp("sync_window_start", { withTimezone: true }),
    syncWindowEnd: timestamp("sync_window_end", { withTimezone: true }),
    lastSyncedAt: timestamp("last_synced_at", { withTimezone: true }),
    lastError: text("last_error"),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("calendar_integrations_account_uq").on(t.accountId),
    uniqueIndex("calendar_integrations_grant_uq").on(t.userId, t.provider, t.providerAccountId),
    index("calendar_integrations_user_idx").on(t.userId),
  ],
);

/**
 * One event occurrence of a connected calendar (recurring series are stored expanded, as the
 * providers' singleEvents / calendarView answers give them). Timed events keep instants; all-day
 * events keep dates (end exclusive), which mean local days wherever the person is.
 */
export const calendarEvents = pgTable(
  "calendar_events",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    integrationId: uuid("integration_id")
      .notNull()
      .references(() => calendarIntegrations.id, { onDelete: "cascade" }),
    providerEventId: text("provider_event_id").notNull(),
    /** The series an occurrence belongs to, so removing a series removes its occurrences. */
    seriesId: text("series_id"),
    title: text("title").notNull(),
    location: text("location"),
    allDay: boolean("all_day").notNull(),
    startAt: timestamp("start_at", { withTimezone: true }),
    endAt: timestamp("end_at", { withTimezone: true }),
    startDate: text("start_date"),
    endDate: text("end_date"),
    timeZone: text("time_zone"),
    /** confirmed | tentative | cancelled */
    status: text("status").notNull(),
    organizer: text("organizer"),
    attendees: jsonb("attendees")
      .$type<{ email: string; name: string | null; responseStatus: string }[]>()
      .notNull(),
    htmlLink: text("html_link"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("calendar_events_integration_event_uq").on(t.integrationId, t.providerEventId),
    index("calendar_events_user_start_idx").on(t.userId, t.startAt),
    index("calendar_events_user_date_idx").on(t.userId, t.startDate),
  ],
);

/**
 * The person's last answer (Yes / Maybe / No) to the invitation an email carries, so the reader
 * shows it again after a reload. Goes with the email (retention, deletion) and with the person.
 */
export const invitationAnswers = pgTable(
  "invitation_answers",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    emailId: uuid("email_id")
      .notNull()
      .references(() => emails.id, { onDelete: "cascade" }),
    /** accepted | tentative | declined */
    response: text("response").notNull(),
    /** calendar | email: where the answer went */
    via: text("via").notNull(),
    /** The calendar answered on, or the mailbox the reply went from. */
    answeredFrom: text("answered_from").notNull(),
    organizer: text("organizer").notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.emailId] }),
    index("invitation_answers_email_idx").on(t.emailId),
  ],
);

/**
 * A one-time ticket that lets the full-page navigation to /api/auth/{provider}/calendar start a
 * calendar connection without the session token in its URL: minted by an authenticated call,
 * stored hashed, single use, a minute long, bound to the browser's flow cookie and to the session
 * that minted it.
 */
export const calendarConnectTickets = pgTable(
  "calendar_connect_tickets",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    ticketHash: text("ticket_hash").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    flowHash: text("flow_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("calendar_connect_tickets_hash_uq").on(t.ticketHash)],
);

/**
 * The person's game state (achievements and leaderboard, decision 0024): counters kept up to date
 * by the recorder from provider-confirmed actions, never recounted per request. The score is a
 * stored generated column (docs/game-scoring.md), so it cannot disagree with its parts, and a
 * trigger keeps game_score_counts (the ranking's histogram) in step with every insert, update
 * and delete, including the cascade when a user is deleted.
 */
export const gameProfiles = pgTable(
  "game_profiles",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Chosen on the leaderboard; null: a pseudonym derived from the user id (never the address). */
    displayName: text("display_name"),
    showOnLeaderboard: boolean("show_on_leaderboard").notNull().default(true),
    /** IANA zone the inbox-zero days are counted in (the browser tells it). */
    timeZone: text("time_zone").notNull().default("UTC"),
    emailsProcessed: integer("emails_processed").notNull().default(0),
    unsubscribes: integer("unsubscribes").notNull().default(0),
    aiUses: integer("ai_uses").notNull().default(0),
    inboxZeroDays: integer("inbox_zero_days").notNull().default(0),
    /** Consecutive inbox-zero days ending at last_inbox_zero_day. */
    inboxZeroStreak: integer("inbox_zero_streak").notNull().default(0),
    bestInboxZeroStreak: integer("best_inbox_zero_streak").notNull().default(0),
    /** The person's local calendar day (time_zone) of the latest inbox zero. */
    lastInboxZeroDay: date("last_inbox_zero_day", { mode: "string" }),
    badgesEarned: integer("badges_earned").notNull().default(0),
    isFoundingMember: boolean("is_founding_member").notNull().default(false),
    /** Only when not a founding member. */
    isEarlyAdopter: boolean("is_early_adopter").notNull().default(false),
    score: integer("score")
      .notNull()
      .generatedAlwaysAs(
        sql`emails_processed * 10 + badges_earned * 100 + best_inbox_zero_streak * 50 + case when is_founding_member then 1000 when is_early_adopter then 500 else 0 end`,
      ),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The top of the ranking: read in order, never sorted.
    index("game_profiles_ranking_idx").on(t.score.desc(), t.userId).where(sql`${t.showOnLeaderboard}`),
  ],
);

/**
 * How many people on the ranking have each score: a person's rank is one plus the people above
 * them (a sum over the distinct higher scores, not a count of people), the total is the sum.
 * Maintained by the game_profiles trigger only.
 */
export const gameScoreCounts = pgTable("game_score_counts", {
  score: integer("score").primaryKey(),
  users: integer("users").notNull(),
});

/**
 * What has been counted once already: (kind, key) per person, such as ("processed", email id) or
 * ("unsubscribe", sender). An email archived, unarchived and archived again counts once.
 */
export const gameLedger = pgTable(
  "game_ledger",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** processed | unsubscribe | ai */
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.key] })],
);

/** Badges a person earned and when; a row is never updated or removed while the person exists. */
export const gameBadges = pgTable(
  "game_badges",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    badgeId: text("badge_id").notNull(),
    earnedAt: timestamp("earned_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.badgeId] })],
);

/**
 * The person's privacy settings (spec section 3) and a pending scheduled deletion. No row means
 * the defaults: nothing opted out, standard retention, no deletion scheduled.
 */
export const privacySettings = pgTable(
  "privacy_settings",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    doNotSell: boolean("do_not_sell").notNull().default(false),
    analyticsOptOut: boolean("analytics_opt_out").notNull().default(false),
    marketingOptOut: boolean("marketing_opt_out").notNull().default(false),
    /** minimal | standard | extended (contract/privacy.ts) */
    dataRetention: text("data_retention").notNull().default("standard"),
    /** When the retention job last ran for this person (it runs once a day per person). */
    retentionRunAt: timestamp("retention_run_at", { withTimezone: true }),
    /** Set while a deletion is scheduled: the sweep deletes the account once the clock passes it. */
    deletionScheduledFor: timestamp("deletion_scheduled_for", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("privacy_settings_deletion_idx").on(t.deletionScheduledFor)],
);

/**
 * The person's correspondents (issue 36), the To/Cc/Bcc suggestions: one row per lower-cased
 * address across all their accounts, counted from synced mail (received from, sent to) and from
 * sends through Mailwise. Rebuilt from `emails` after each sync (server/mail/contacts/), so the
 * counts are idempotent; decision 0068.
 */
export const contacts = pgTable(
  "contacts",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Lower-cased: one contact per address whatever case a sender used. */
    address: text("address").notNull(),
    /** The latest non-empty display name seen for the address ("" when none). */
    name: text("name").notNull().default(""),
    /** Messages the person sent to it (To or Cc). */
    sentCount: integer("sent_count").notNull().default(0),
    /** Messages the person received from it. */
    receivedCount: integer("received_count").notNull().default(0),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull(),
    /**
     * The name's words, lower-cased, each after one space (" jane doe" for "Doe, Jane" gives
     * " doe jane"): "any word of the name starts with q" is one LIKE ' q%' without a regex per
     * row at query time.
     */
    nameWords: text("name_words")
      .notNull()
      .generatedAlwaysAs(sql`' ' || trim(regexp_replace(lower(name), '[^[:alnum:]]+', ' ', 'g'))`),
  },
  // The key serves the owner-scoped suggestion scan (a person has thousands of contacts at most).
  (t) => [primaryKey({ columns: [t.userId, t.address] })],
);

/**
 * Due actions (issues 36 and 37, decision 0069): something to do for a person at a time of the
 * server's clock, swept by the worker role and claimed with FOR UPDATE SKIP LOCKED so each runs
 * once. `kind` names the handler ("send": a held mail, whose full compose request is `payload`);
 * `ref` is a stable id the handler keys its effect by (the Message-ID a held mail is sent with).
 * A row is `pending` until due, `running` while claimed (until `locked_until`; a claim past it is
 * a dead worker's and is taken over), then `done` (payload emptied) or `failed` (kept with its
 * payload and `last_error`, shown to the person, never dropped).
 */
export const dueActions = pgTable(
  "due_actions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    runAt: timestamp("run_at", { withTimezone: true }).notNull(),
    /** pending | running | done | failed */
    status: text("status").notNull().default("pending"),
    payload: jsonb("payload").notNull(),
    ref: text("ref"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    lockedBy: text("locked_by"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [
    // The sweep's question: what is due (pending by run_at; running by its lease).
    index("due_actions_due_idx").on(t.status, t.runAt),
    index("due_actions_user_idx").on(t.userId, t.kind),
  ],
);

/**
 * Files a person attached in compose (issue 36), waiting on disk to be sent: `path` is a random
 * name under the server's upload folder (never the person's file name). Deleted with their file
 * after the send that used them, or by the worker's sweep once `expiresAt` (24 h) passes.
 */
export const uploads = pgTable(
  "uploads",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    /** Relative to the upload folder: `<user id>/<random hex>`. */
    path: text("path").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("uploads_user_idx").on(t.userId), index("uploads_expires_idx").on(t.expiresAt)],
);

/**
 * Notifications (issue 38, decision 0075): one row per person who ever changed the setting (no row
 * means off). `enabledAt` is when they last turned it on: mail received before it is not new to
 * them. Quiet hours are wall-clock "HH:MM" in `time_zone`; an end before the start spans midnight.
 */
export const notificationSettings = pgTable("notification_settings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** off | important | all (contract NOTIFICATION_MODES). */
  mode: text("mode").notNull().default("off"),
  mutedAccountIds: jsonb("muted_account_ids").$type<string[]>().notNull().default([]),
  quietStart: text("quiet_start"),
  quietEnd: text("quiet_end"),
  timeZone: text("time_zone").notNull().default("UTC"),
  enabledAt: timestamp("enabled_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A browser's Web Push subscription (RFC 8030 endpoint, RFC 8291 keys). The endpoint is unique:
 * a browser where another person signs in moves its subscription to them. Removed when the push
 * service answers 404 or 410.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastPushAt: timestamp("last_push_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_uq").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId),
  ],
);

/**
 * Each new mail's notification decision, made once: the insert is the claim (primary key on the
 * email), so two processes reacting to the same analysis never both notify. `outcome` is "sent"
 * or why not ("read", "category", "quiet_hours", ...).
 */
export const notifiedEmails = pgTable(
  "notified_emails",
  {
    emailId: uuid("email_id")
      .primaryKey()
      .references(() => emails.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    outcome: text("outcome").notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("notified_emails_user_idx").on(t.userId, t.decidedAt)],
);
