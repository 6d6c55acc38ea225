import type { AiCategory, SecurityScan } from "../../../contract/ai.ts";
import type { EmailFeatures } from "./features.ts";
import type { AttachmentInfo } from "./security/attachments.ts";
import type { UrgencyResult } from "./urgency.ts";

/**
 * Up to 3 concrete suggested actions, most useful first: safety first, then the reply the
 * sender is waiting for, then what to do with attachments, dates and subscriptions.
 */

const MAX_ACTIONS = 3;

function firstName(features: EmailFeatures): string {
  const name = features.fromName.replace(/["']/g, "").trim();
  if (!name || name.includes("@")) return "the sender";
  const first = name.includes(",") ? (name.split(",")[1] ?? "").trim().split(/\s+/)[0] : name.split(/\s+/)[0];
  return first && /^[\p{L}][\p{L}'-]*$/u.test(first) ? first : "the sender";
}

function topicOf(features: EmailFeatures, pattern: RegExp): boolean {
  return pattern.test(`${features.subject}\n${features.text.slice(0, 3000)}`);
}

export function suggestActions(
  features: EmailFeatures,
  urgency: UrgencyResult,
  category: AiCategory,
  security: SecurityScan,
  attachments: readonly AttachmentInfo[],
): string[] {
  const actions: string[] = [];
  const add = (action: string) => {
    if (actions.length < MAX_ACTIONS && !actions.includes(action)) actions.push(action);
  };

  if (security.verdict === "dangerous") {
    add("Do not click links or open attachments; report this email as phishing");
    add("Delete this email");
    return actions;
  }
  if (security.verdict === "suspicious") add("Check the sender before clicking any link");

  const who = firstName(features);
  if (urgency.replyNeeded) {
    if (urgency.deadline) add(`Reply to confirm the ${urgency.deadline.text} deadline`);
    else if (urgency.question)
      add(`Reply to answer ${who === "the sender" ? "the sender's" : `${who}'s`} question`);
    else add(`Reply to ${who}`);
  }

  // The attached invoice is the file named like one, or the document of an email about an invoice.
  const invoice =
    attachments.find((a) => /invoice|bill|statement|receipt/i.test(a.filename)) ??
    (topicOf(features, /\binvoice\b/i)
      ? attachments.find((a) => /\.(pdf|docx?|xlsx?|odt|ods)$/i.test(a.filename))
      : undefined);
  if (invoice || (category === "finance" && topicOf(features, /\binvoice\b/i))) {
    add(invoice ? "Review the attached invoice" : "Review the invoice and its due date");
  } else if (category === "finance" && topicOf(features, /\b(payment|amount due|balance)\b/i)) {
    add("Check the payment details");
  }
  const meeting = features.sentences
    .slice(0, 30)
    .find(
      (s) =>
        /\b(meeting|call|appointment|interview)\b/i.test(s.text) && s.entities.some((e) => e.type === "DATE"),
    );
  const meetingDate = meeting?.entities.find((e) => e.type === "DATE")?.value.replace(/[.,]$/, "");
  if (meetingDate) add(`Add the ${meetingDate} meeting to your calendar`);
  if (category === "travel") add("Save the booking details for your trip");
  if (category === "security" && security.verdict === "safe") {
    add("If you did not request this, change your password");
  }
  const other = attachments.find((a) => a !== invoice);
  if (other && security.verdict === "safe") add(`Open the attached ${other.filename.slice(0, 60)}`);
  if (category === "newsletter" || (features.bulk && category !== "promotions")) {
    if (features.hasListUnsubscribe) add("Unsubscribe from this newsletter");
  }
  if (category === "promotions" && (features.hasListUnsubscribe || features.bulk)) {
    add("Unsubscribe from these promotions");
  }
  if (!urgency.replyNeeded && actions.length < MAX_ACTIONS) add("Archive this email");
  return actions;
}
