/**
 * The privacy feature's plain constants and texts, without zod, so the public privacy policy page
 * and the dashboard can import them without the schema library (contract/privacy.ts re-exports).
 */

/** Spec section 9: minimal 90 days, standard 2 years (default), extended 7 years. */
export const DATA_RETENTIONS = ["minimal", "standard", "extended"] as const;
export type DataRetention = (typeof DATA_RETENTIONS)[number];

export const RETENTION_DAYS: Record<DataRetention, number> = {
  minimal: 90,
  standard: 730,
  extended: 2555,
};

export const RETENTION_LABELS: Record<DataRetention, string> = {
  minimal: "Minimal: 90 days",
  standard: "Standard: 2 years (default)",
  extended: "Extended: 7 years",
};

/** Spec section 9: the deletion grace period. */
export const DELETION_GRACE_DAYS = 30;

/** The name of the export's download: mailwise-export-YYYY-MM-DD.json (UTC date it was made). */
export function exportFileName(at: Date): string {
  return `mailwise-export-${at.toISOString().slice(0, 10)}.json`;
}

/**
 * What each opt-out switches off, in the code as it is. The privacy policy page and the privacy
 * panel render these very sentences, so the promise and the behaviour cannot drift apart; change
 * a sentence only together with the code it describes (server/privacy/opt-outs.ts).
 */
export const PRIVACY_SETTING_EFFECTS = {
  doNotSell:
    "Mailwise sells no personal data and shares none for advertising: no code path sends your data to anyone but the mail and calendar providers you connect and the AI engine that analyses your mail. Do not sell records your choice (your CCPA opt-out) and keeps it on record; it has nothing to switch off because nothing is sold.",
  analyticsOptOut:
    "Mailwise runs no analytics: there are no tracking scripts, analytics cookies or usage events, and the browser stores only your session and your choices. The analytics opt-out records your choice; it has nothing to switch off because nothing is collected.",
  marketingOptOut:
    "Mailwise sends no marketing or product-news email; the only mail it sends is the mail you send or let your agent send. The marketing opt-out records your choice; it has nothing to switch off because no marketing is sent.",
  dataRetention:
    "Once a day, Mailwise removes its own copy of mail received before your retention period (the message, its body, its AI analysis, agent replies prepared for it, and agent memories learned only from such mail). The mail in your Gmail or Outlook mailbox is never touched.",
} as const satisfies Record<"doNotSell" | "analyticsOptOut" | "marketingOptOut" | "dataRetention", string>;
