import type { EmailFeatures } from "./features.ts";
import { onlyPlainAsks } from "./plain-ask.ts";
import { analyzeSentiment, type SentimentResult } from "./sentiment.ts";

/**
 * The sentiment of an email: its subject and the first sentences of its body as the sender wrote
 * them. The body is already without salutation, closing and signature (text-cleaning.ts), so
 * "Dear ..." (AFINN +2) and "Best regards" no longer lend a complaint a friendly tone. VADER's
 * cost grows with length, so only the opening is read: it carries the tone of a mail.
 */
export function emailSentiment(features: EmailFeatures): SentimentResult {
  const opening = features.sentences.slice(0, 4);
  const subject = features.subject.replace(/^\s*((re|fwd?|aw|sv)\s*:\s*)+/i, "").trim();
  const text = `${subject ? `${subject}. ` : ""}${opening.map((s) => s.text).join(" ")}`.slice(0, 320);
  const result = analyzeSentiment(text, { sentences: opening, sentiment: features.parsed.sentiment });
  // A mail that only asks something reads as neutral at worst (plain-ask.ts).
  if (
    result.label === "negative" &&
    onlyPlainAsks(
      subject,
      opening.map((s) => s.text),
    )
  )
    return { ...result, label: "neutral" };
  return result;
}
