import type { AiCategory, ResponseTime, SecurityVerdict } from "../../../contract/ai.ts";
import type { EmailFeatures } from "./features.ts";
import type { UrgencyResult } from "./urgency.ts";

/**
 * Suggested response time, one of four steps:
 *   "Within 1 hour"      a reply is asked for, urgency is high and the deadline is today or the
 *                        wording says ASAP/urgent
 *   "Today"              a reply is asked for and urgency is high, or the sender is a VIP
 *   "Within 2 days"      a reply is asked for (question or request) by a person
 *   "No response needed" bulk, automated, promotional, social or notification mail, anything
 *                        that looks like phishing, and mail that asks nothing
 */

const NO_REPLY_CATEGORIES: ReadonlySet<AiCategory> = new Set([
  "newsletter",
  "promotions",
  "social",
  "notification",
  "security",
]);

export function suggestResponseTime(
  features: EmailFeatures,
  urgency: UrgencyResult,
  category: AiCategory,
  verdict: SecurityVerdict,
): ResponseTime {
  if (verdict === "dangerous" || features.bulk || features.automated) return "No response needed";
  if (NO_REPLY_CATEGORIES.has(category) || !urgency.replyNeeded) return "No response needed";
  const immediate =
    urgency.level === "high" &&
    ((urgency.deadline?.daysAway ?? 99) === 0 ||
      /\b(urgent(ly)?|asap|immediately|right away|emergency|as soon as possible)\b/i.test(
        `${features.subject} ${features.text.slice(0, 2000)}`,
      ));
  if (immediate) return "Within 1 hour";
  if (urgency.level === "high" || features.isVip) return "Today";
  return "Within 2 days";
}
