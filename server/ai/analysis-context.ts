import type { AgentPreferences, EmailAnalysis, IgnoreCategory } from "../../contract/ai.ts";
import type { AnalyzerContext } from "./local/index.ts";
import type { SenderSignals } from "./memory-service.ts";

/** The agent's ignore categories (spec section 5) as analyzer categories. */
const IGNORED: Record<IgnoreCategory, ReadonlyArray<EmailAnalysis["category"]>> = {
  Newsletters: ["newsletter"],
  Promotions: ["promotions"],
  Notifications: ["notification"],
  "Social Media": ["social"],
};

export function ignoredCategory(
  category: EmailAnalysis["category"],
  prefs: AgentPreferences | undefined,
): IgnoreCategory | undefined {
  return prefs?.email_behavior.ignore_categories.find((c) => IGNORED[c].includes(category));
}

/** True when `address` matches a VIP entry: a full address or a bare domain ("acme.com", "@acme.com"). */
export function isVip(address: string, prefs: AgentPreferences | undefined): boolean {
  const a = address.toLowerCase();
  const domain = a.split("@")[1] ?? "";
  return (prefs?.vip_contacts ?? []).some((v) => {
    const vip = v.toLowerCase().replace(/^@/, "");
    return vip.includes("@") ? vip === a : domain === vip || domain.endsWith(`.${vip}`);
  });
}

/** What the local analyzer and the prompt know about the user and this sender. */
export function analyzerContext(
  prefs: AgentPreferences | undefined,
  ownAddresses: readonly string[],
  signals: SenderSignals | undefined,
  contactDomains: readonly string[],
): AnalyzerContext {
  return {
    userAddresses: ownAddresses,
    vipContacts: prefs?.vip_contacts ?? [],
    isKnownContact: (signals?.repliedCount ?? 0) > 0,
    senderStats: signals ?? { repliedCount: 0, archivedUnreadCount: 0 },
    priorityHandling: prefs?.email_behavior.priority_handling ?? "medium",
    contactDomains,
  };
}

/**
 * A model's importance moved by the user's own behaviour, VIPs and priority handling, the same
 * signals the local analyzer weighs, so both engines rank one sender alike.
 */
export function personalise(
  importance: number,
  vip: boolean,
  signals: SenderSignals | undefined,
  prefs: AgentPreferences | undefined,
): number {
  let score = importance;
  if (vip) score = Math.max(score, 8);
  const replied = signals?.repliedCount ?? 0;
  const ignored = signals?.archivedUnreadCount ?? 0;
  score += Math.min(2, 0.8 * Math.log2(1 + replied));
  score -= Math.min(2.5, 0.8 * Math.log2(1 + ignored));
  const priority = prefs?.email_behavior.priority_handling ?? "medium";
  if (priority === "high") score += 1;
  if (priority === "low") score -= 1;
  return Math.max(0, Math.min(10, Math.round(score)));
}

/** Hints for the prompt: only what the agent learnt, never other mail's text. */
export function senderHints(vip: boolean, signals: SenderSignals | undefined): string[] {
  const hints: string[] = [];
  if (vip) hints.push("the user marked this sender as a VIP contact");
  if ((signals?.repliedCount ?? 0) > 0)
    hints.push(`the user has replied to this sender ${signals?.repliedCount} times`);
  if ((signals?.archivedUnreadCount ?? 0) > 0) {
    hints.push(
      `the user archived ${signals?.archivedUnreadCount} emails from this sender without reading them`,
    );
  }
  return hints;
}
