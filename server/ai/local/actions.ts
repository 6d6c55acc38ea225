import type { AiCategory, SecurityScan } from "../../../contract/ai.ts";
import type { EmailFeatures } from "./features.ts";
import { byDeadline, deadlineTask, type Intent } from "./intent.ts";
import type { AttachmentInfo } from "./security/attachments.ts";
import type { UrgencyResult } from "./urgency.ts";

/**
 * Up to 3 concrete suggested actions that follow what the mail asks (its intent). Safety first:
 * on mail with ANY risk signal (a verdict other than safe) the actions never push the reader to
 * comply (reply, pay, click, confirm, call, scan, approve); they say how to check instead.
 */

const MAX_ACTIONS = 3;

function firstName(features: EmailFeatures): string {
  const name = features.fromName.replace(/["']/g, "").trim();
  if (!name || name.includes("@")) return "the sender";
  const first = name.includes(",") ? (name.split(",")[1] ?? "").trim().split(/\s+/)[0] : name.split(/\s+/)[0];
  return first && /^[\p{L}][\p{L}'-]*$/u.test(first) ? first : "the sender";
}

const CALLED_OFF =
  /\b(cancel(l?ed|l?ing|s)?|call(ed|ing)? off|(is|'s) off|(won't|will not) (be )?go(ing)? ahead)\b/i;
const CANCEL_IF = /\b(if|should|in case|whether)\b[^.!?]{0,40}\b(cancel|call it off)/i;

function topicOf(features: EmailFeatures, pattern: RegExp): boolean {
  return pattern.test(`${features.subject}\n${features.text.slice(0, 3000)}`);
}

/** What to do instead of complying, most specific first. */
export function safetyActions(security: SecurityScan, features: EmailFeatures): string[] {
  const codes = new Set(security.reasons.filter((r) => r.severity !== "info").map((r) => r.code));
  const actions: string[] = [];
  const who = firstName(features);
  if (
    codes.has("gift_card_request") ||
    codes.has("payment_change_request") ||
    codes.has("colleague_name_spoof")
  ) {
    actions.push(
      `Do not buy, pay or change any bank details; check with ${who === "the sender" ? "the person named" : who} on a phone number you already have`,
    );
  } else if (codes.has("mfa_approval_request")) {
    actions.push("Do not approve sign-in prompts or share codes you did not ask for");
  } else if (codes.has("callback_scam")) {
    actions.push("Do not call the number in this email; check the charge in your account instead");
  } else if (codes.has("qr_code_lure")) {
    actions.push("Do not scan the QR code; open the service from its usual address instead");
  } else if (codes.has("oauth_consent_link")) {
    actions.push("Do not open the link or grant the app access to your account");
  }
  if (security.verdict === "dangerous") {
    actions.push("Do not reply, click links or open attachments");
    actions.push("Report this email as phishing, then delete it");
  } else {
    actions.push("Check the sender through an address or number you already know before you act");
    actions.push("Do not click links, open attachments or share codes until you have checked");
  }
  return [...new Set(actions)].slice(0, MAX_ACTIONS);
}

export function suggestActions(
  features: EmailFeatures,
  urgency: UrgencyResult,
  category: AiCategory,
  security: SecurityScan,
  attachments: readonly AttachmentInfo[],
  intent: Intent,
): string[] {
  if (security.verdict !== "safe") return safetyActions(security, features);

  const actions: string[] = [];
  const add = (action: string) => {
    if (actions.length < MAX_ACTIONS && !actions.includes(action)) actions.push(action);
  };
  const who = firstName(features);
  const whose = who === "the sender" ? "the sender's" : `${who}'s`;
  const deadline = urgency.deadline?.text;
  const meetingDate = features.sentences
    .slice(0, 30)
    .flatMap((s) =>
      /\b(meeting|call|review|appointment|interview|sync|dinner|lunch)\b/i.test(s.text) ? s.entities : [],
    )
    .find((e) => e.type === "DATE")
    ?.value.replace(/[.,]$/, "");

  switch (intent) {
    case "complaint":
      add(`Reply to ${who} to acknowledge the complaint`);
      add(
        topicOf(features, /\b(refund|replacement|money back)\b/i)
          ? `Sort out the refund or replacement ${who} asks for`
          : `Look into the problem ${who} raised`,
      );
      break;
    case "meeting":
      // A meeting called off asks for a new date, not an answer to an invitation ("if you need to
      // cancel, let me know" calls nothing off).
      if (
        CALLED_OFF.test(features.subject) ||
        features.sentences.slice(0, 30).some((s) => CALLED_OFF.test(s.text) && !CANCEL_IF.test(s.text))
      ) {
        add(`Reply to ${who} to rebook or confirm the cancellation`);
        add("Take the meeting out of your calendar");
      } else if (
        topicOf(features, /\b(move|moving|push|reschedul\w*|postpone|shift|another time|new time)\b/i)
      ) {
        add(`Reply to ${who} about the new time${meetingDate ? ` (${meetingDate})` : ""}`);
        add("Check your calendar before you agree to the change");
      } else {
        add(`Reply to accept or decline ${whose} invitation`);
        if (meetingDate) add(`Add the ${meetingDate} meeting to your calendar`);
        else add("Check your calendar for the proposed time");
      }
      break;
    case "deadline":
      // A person waiting for an answer gets the reply first; a notice gets the task it names.
      if (urgency.replyNeeded && !features.automated) add(`Reply to ${who} ${byDeadline(deadline)}`);
      else
        add(
          `${deadlineTask(`${features.subject}\n${features.text.slice(0, 3000)}`)} ${byDeadline(deadline)}`,
        );
      break;
    case "question":
      add(`Reply to answer ${whose} question`);
      break;
    case "request":
      add(
        deadline
          ? `Reply to ${who} about the request ${byDeadline(deadline)}`
          : `Reply to ${who} about the request`,
      );
      break;
    default:
      break;
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
  if (category === "travel") add("Save the booking details for your trip");
  if (category === "security") add("If you did not request this, change your password");
  const other = attachments.find((a) => a !== invoice);
  if (other && intent !== "notification") add(`Open the attached ${other.filename.slice(0, 60)}`);
  if (category === "newsletter" || (features.bulk && category !== "promotions")) {
    if (features.hasListUnsubscribe) add("Unsubscribe from this newsletter");
  }
  if (category === "promotions" && (features.hasListUnsubscribe || features.bulk)) {
    add("Unsubscribe from these promotions");
  }
  // Only mail that asks nothing of the reader can simply be archived.
  if (intent === "information" || intent === "notification") add("Archive this email");
  return actions;
}
