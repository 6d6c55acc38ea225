import type { AiCategory, SecurityVerdict } from "../../../contract/ai.ts";
import type { EmailFeatures } from "./features.ts";
import type { AnalyzerContext } from "./types.ts";
import type { UrgencyResult } from "./urgency.ts";

/**
 * Importance 0-10 (integer): urgency sets the base, then sender signals, category, the user's
 * own behaviour with this sender, and the agent's priority handling move it.
 *   priority handling "high" raises everything that is not bulk by 1, "low" lowers by 1.
 * Nothing here reads the words of the email beyond the urgency and category already derived.
 */

const URGENCY_BASE = { high: 7, medium: 5, low: 3 } as const;

const CATEGORY_SHIFT: Record<AiCategory, number> = {
  personal: 1,
  work: 1,
  finance: 0.5,
  security: 0.5,
  travel: 0.5,
  notification: -1,
  newsletter: -1.5,
  social: -1.5,
  promotions: -2,
  other: -0.5,
};

export function scoreImportance(
  features: EmailFeatures,
  urgency: UrgencyResult,
  category: AiCategory,
  verdict: SecurityVerdict,
  context: AnalyzerContext,
): number {
  let score: number = URGENCY_BASE[urgency.level];
  if (features.isVip) score += 2;
  else if (features.isKnownContact) score += 1;
  if (features.bulk) score -= 1;
  if (features.automated) score -= 1;
  score += CATEGORY_SHIFT[category];
  if (urgency.replyNeeded) score += 0.5;
  const stats = context.senderStats;
  if (stats) {
    score += Math.min(2, 0.8 * Math.log2(1 + Math.max(0, stats.repliedCount)));
    score -= Math.min(2.5, 0.8 * Math.log2(1 + Math.max(0, stats.archivedUnreadCount)));
  }
  if (!features.bulk && !features.automated) {
    if (context.priorityHandling === "high") score += 1;
    if (context.priorityHandling === "low") score -= 1;
  }
  // A likely phish is not important to act on: the warning, not the email, is what matters.
  if (verdict === "dangerous") score = Math.min(score, 2);
  else if (verdict === "suspicious") score = Math.min(score, 4);
  return Math.max(0, Math.min(10, Math.round(score)));
}
