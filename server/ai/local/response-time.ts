import type { ResponseTime, SecurityVerdict } from "../../../contract/ai.ts";
import type { EmailFeatures } from "./features.ts";
import type { Intent } from "./intent.ts";
import type { UrgencyResult } from "./urgency.ts";

/**
 * Suggested response time, one of four steps:
 *   "Within 1 hour"      a reply is asked for, urgency is high and the deadline is today or the
 *                        wording says ASAP/urgent
 *   "Today"              a reply is asked for and urgency is high, or the sender is a VIP
 *   "Within 2 days"      a question, request, meeting or complaint, or a task due later
 *   "No response needed" notifications and information that ask nothing, and any mail with a
 *                        risk signal (its pressure is not a reason to act)
 * A deadline task (a password to change by Friday) is "Today" when due within a day.
 */

export function suggestResponseTime(
  features: EmailFeatures,
  urgency: UrgencyResult,
  verdict: SecurityVerdict,
  intent: Intent,
): ResponseTime {
  // Risky mail: the answer to pressure is not to answer it in a hurry.
  if (verdict !== "safe") return "No response needed";
  if (intent === "notification" || intent === "information") return "No response needed";
  const days = urgency.deadline?.daysAway ?? null;
  const immediate =
    urgency.level === "high" &&
    ((days ?? 99) === 0 ||
      /\b(urgent(ly)?|asap|immediately|right away|emergency|as soon as possible)\b/i.test(
        `${features.subject} ${features.text.slice(0, 2000)}`,
      ));
  if (immediate) return "Within 1 hour";
  if (urgency.level === "high" || features.isVip || intent === "complaint" || (days !== null && days <= 1))
    return "Today";
  return "Within 2 days";
}
