import type { AiCategory } from "../../../contract/ai.ts";
import type { EmailFeatures } from "./features.ts";
import type { AttachmentInfo } from "./security/attachments.ts";
import type { AnalyzerContext } from "./types.ts";
import type { UrgencyResult } from "./urgency.ts";

/**
 * Short facts the agent could learn from this email: who sends what, and dated commitments.
 * They name the sender's address (the user's own mailbox data) and never quote the body.
 * Only about the person's own correspondents (senders they have written to, and VIPs): a one-off
 * sender, a newsletter or a stranger's offer teaches nothing worth remembering.
 */

const MAX_MEMORIES = 3;

function cadence(text: string): string {
  const match = /\b(daily|weekly|monthly|quarterly|yearly|annually)\b/i.exec(text);
  return match?.[1] ? ` ${match[1].toLowerCase()}` : "";
}

export function learnMemories(
  features: EmailFeatures,
  urgency: UrgencyResult,
  category: AiCategory,
  attachments: readonly AttachmentInfo[],
  context: AnalyzerContext = {},
): string[] {
  const memories: string[] = [];
  const correspondent =
    features.isKnownContact || features.isVip || (context.senderStats?.repliedCount ?? 0) > 0;
  if (!correspondent) return memories;
  const sender = features.fromAddress || "this sender";
  const text = `${features.subject}\n${features.text.slice(0, 3000)}`;
  const add = (memory: string) => {
    if (memories.length < MAX_MEMORIES && !memories.includes(memory)) memories.push(memory);
  };
  if (/\binvoice\b/i.test(text) || attachments.some((a) => /invoice/i.test(a.filename))) {
    add(`${sender} sends invoices${cadence(text)}`);
  } else if (/\b(receipt|statement)\b/i.test(text) && category === "finance") {
    add(`${sender} sends ${/statement/i.test(text) ? "statements" : "receipts"}${cadence(text)}`);
  }
  if (category === "newsletter") add(`${sender} is a newsletter or mailing list${cadence(text)}`);
  if (category === "promotions" && features.bulk) add(`${sender} sends promotional mail`);
  if (category === "social") add(`${sender} sends social network notifications`);
  if (urgency.deadline && urgency.replyNeeded) {
    const who = features.fromName && !features.fromName.includes("@") ? features.fromName : sender;
    add(`${who} expects a reply by ${urgency.deadline.text}`);
  }
  if (!features.bulk && !features.automated && (category === "work" || category === "personal")) {
    add(`${sender} writes about ${category === "work" ? "work" : "personal matters"}`);
  }
  return memories;
}
