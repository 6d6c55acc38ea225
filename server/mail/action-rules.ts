/** What the action-item rules read of an email. */
export interface ActionCandidate {
  fromName: string;
  fromAddress: string;
  subject: string;
  snippet: string;
  bucket: string | null;
  listUnsubscribe: string | null;
  aiAnalysis: Record<string, unknown> | null;
}

export const ACTION_REASONS = {
  important: "Marked important by AI",
  urgent: "Marked urgent",
  deadline: "Mentions a deadline",
  question: "Asks you a question",
  request: "Asks you to do something",
} as const;

/** Threshold on aiAnalysis.importance (0-10, spec section 3). */
export const IMPORTANT_FROM = 7;

const BULK_BUCKETS = new Set(["newsletters", "promotions", "social"]);
const AUTOMATED_SENDER =
  /(^|[._+-])(no-?reply|do-?not-?reply|notifications?|alerts?|mailer-daemon|postmaster|bounces?|newsletter|news|marketing|updates|info|support)([._+-]|@)/i;

const URGENT = /\b(urgent|asap|action required|immediately|time[- ]sensitive)\b/i;
const DAYS =
  "monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today|tonight|noon|eod|eow|cob";
const DEADLINE = new RegExp(
  `\\b(deadline|due (by|on|date|today|tomorrow)|no later than|rsvp|(by|before|until) (${DAYS}|end of (the )?(day|week|month)|the end of (the )?(day|week|month)))\\b`,
  "i",
);
const REQUEST =
  /\b(could you|can you|would you|will you|please|let me know|are you able|do you mind|need you to|i need your|your (approval|input|feedback|thoughts|signature|review)|get back to me|awaiting your)\b/i;

/** Mail from a person, not a list, a shop, a social network or a robot. */
export function isFromPerson(email: ActionCandidate): boolean {
  if (email.bucket && BULK_BUCKETS.has(email.bucket)) return false;
  if (email.listUnsubscribe) return false;
  return !AUTOMATED_SENDER.test(email.fromAddress);
}

/**
 * Why this (unread, inbox) email needs the user's action, or null. Rules in order, first wins,
 * so the reason shown is the strongest one. Only subject and snippet are read: the list stays
 * fast and the snippet is the opening of the message, where requests usually are.
 */
export function actionReason(email: ActionCandidate): string | null {
  if (!isFromPerson(email)) return null;
  const importance = email.aiAnalysis?.importance;
  if (typeof importance === "number" && importance >= IMPORTANT_FROM) return ACTION_REASONS.important;
  const text = `${email.subject}\n${email.snippet}`;
  if (URGENT.test(text)) return ACTION_REASONS.urgent;
  if (DEADLINE.test(text)) return ACTION_REASONS.deadline;
  // A reply's subject keeps the original question; look at the snippet and a non-reply subject.
  const subjectAsks = !/^\s*(re|aw|sv)\s*:/i.test(email.subject) && email.subject.includes("?");
  if (subjectAsks || email.snippet.includes("?")) return ACTION_REASONS.question;
  if (REQUEST.test(text)) return ACTION_REASONS.request;
  return null;
}
