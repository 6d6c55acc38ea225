import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("oauth_states_state_hash_uq").on(t.stateHash)],
);
