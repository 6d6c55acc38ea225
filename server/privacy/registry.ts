import type { ExportSection } from "./export.ts";

/** How a table's rows belong to a person: its user column, or its mail-account column. */
export type Owner = { userColumn: string } | { accountColumn: string };

export interface UserDataTable {
  owner: Owner;
  /** The export section holding its rows, or why the rows are not exported. */
  export: ExportSection | { omitted: string };
}

/**
 * Every table of the public schema that can hold a person's data, and where the export puts it.
 * Deletion removes the user row, and every table here must go with it (ON DELETE CASCADE through
 * users or mail_accounts). registry.test.ts reads the live schema: a table missing here fails it,
 * and so does a table whose rows survive a deletion or are missing from an export. A new feature
 * registers its tables here; tables without any person's data go in NO_USER_DATA with the reason.
 */
export const USER_DATA_TABLES: Record<string, UserDataTable> = {
  users: { owner: { userColumn: "id" }, export: "profile" },
  privacy_settings: { owner: { userColumn: "user_id" }, export: "privacySettings" },
  mail_accounts: { owner: { userColumn: "user_id" }, export: "accounts" },
  sync_states: { owner: { accountColumn: "account_id" }, export: "syncStates" },
  sessions: { owner: { userColumn: "user_id" }, export: "sessions" },
  emails: { owner: { userColumn: "user_id" }, export: "emails" },
  agents: { owner: { userColumn: "user_id" }, export: "agent" },
  agent_memories: { owner: { userColumn: "user_id" }, export: "agentMemories" },
  ai_conversations: { owner: { userColumn: "user_id" }, export: "aiConversations" },
  ai_usage: { owner: { userColumn: "user_id" }, export: "aiUsage" },
  agent_drafts: { owner: { userColumn: "user_id" }, export: "agentDrafts" },
  unsubscribe_requests: { owner: { userColumn: "user_id" }, export: "unsubscribeRequests" },
  calendar_integrations: { owner: { userColumn: "user_id" }, export: "calendarIntegrations" },
  calendar_events: { owner: { userColumn: "user_id" }, export: "calendarEvents" },
  invitation_answers: { owner: { userColumn: "user_id" }, export: "invitationAnswers" },
  due_actions: { owner: { userColumn: "user_id" }, export: "dueActions" },
  uploads: { owner: { userColumn: "user_id" }, export: "uploads" },
  game_profiles: { owner: { userColumn: "user_id" }, export: "gameProfile" },
  game_badges: { owner: { userColumn: "user_id" }, export: "badges" },
  game_ledger: { owner: { userColumn: "user_id" }, export: "gameLedger" },
  contacts: { owner: { userColumn: "user_id" }, export: "contacts" },
  notification_settings: { owner: { userColumn: "user_id" }, export: "notificationSettings" },
  push_subscriptions: { owner: { userColumn: "user_id" }, export: "pushSubscriptions" },
  notified_emails: {
    owner: { userColumn: "user_id" },
    export: { omitted: "which new mail was already considered for a notification: email ids and a time" },
  },
  ai_budget: {
    owner: { userColumn: "user_id" },
    export: { omitted: "this minute's and today's count of model calls; aiUsage lists every call" },
  },
  oauth_states: {
    owner: { userColumn: "link_user_id" },
    export: { omitted: "a sign-in in flight: hashed single-use secrets that expire in 10 minutes" },
  },
  auth_tickets: {
    owner: { userColumn: "user_id" },
    export: { omitted: "hashed single-use sign-in handoffs that expire in 2 minutes" },
  },
  calendar_connect_tickets: {
    owner: { userColumn: "user_id" },
    export: { omitted: "hashed single-use calendar-connect tickets that expire in a minute" },
  },
};

/** Tables of the public schema that hold nobody's data. */
export const NO_USER_DATA: Record<string, string> = {
  game_score_counts: "how many people have each leaderboard score: no person's id",
};
