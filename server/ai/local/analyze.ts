import type { EmailAnalysis } from "../../../contract/ai.ts";
import { suggestActions } from "./actions.ts";
import { categorize } from "./category.ts";
import { extractFeatures } from "./features.ts";
import { scoreImportance } from "./importance.ts";
import { boundInput } from "./input-bounds.ts";
import { detectIntent } from "./intent.ts";
import { keyPoints } from "./key-points.ts";
import { learnMemories } from "./memories.ts";
import { suggestResponseTime } from "./response-time.ts";
import { scanEmail } from "./security/scan.ts";
import { summarize } from "./summary.ts";
import { emailSentiment } from "./tone.ts";
import { ownOrganisationDomains } from "./trade.ts";
import type { AnalyzerContext, AnalyzerInput } from "./types.ts";
import { assessUrgency } from "./urgency.ts";

/** Bump when rules, lexicons or weights change, so stored analyses can be redone. */
export const LOCAL_ANALYZER_VERSION = "local-1.11.4";

/**
 * The offline analyzer: every field of the spec's AI analysis from NLP libraries and rules,
 * with no model download and no network. Pure: the same input and context give the same output.
 */
export function analyzeEmail(unbounded: AnalyzerInput, context: AnalyzerContext = {}): EmailAnalysis {
  const input = boundInput(unbounded);
  const features = extractFeatures(input, context);
  const attachments = input.attachments ?? [];
  const security = scanEmail(
    {
      from: input.from,
      replyTo: input.replyTo ?? [],
      subject: input.subject,
      text: features.rawText,
      html: input.bodyHtml,
      attachments,
      authenticationResults: input.headers?.authenticationResults ?? null,
    },
    {
      contactDomains: context.contactDomains ?? [],
      ownDomains: ownOrganisationDomains(context.userAddresses ?? []),
      colleagues: context.colleagues ?? [],
      knownSender: context.isKnownContact === true,
    },
  );
  if (features.injectionAttempt) {
    security.reasons.push({
      code: "instructions_to_ai",
      severity: "info",
      message: "The message contains instructions aimed at an AI assistant; they were ignored.",
    });
  }
  const urgency = assessUrgency(features);
  // A fraud letter is no newsletter or offer, whichever channel delivered it.
  const fraud = security.reasons.some(
    (r) => r.severity === "danger" && /^(advance_fee|lottery)_fraud$/.test(r.code),
  );
  const category = fraud ? "other" : categorize(features).category;
  const sentiment = emailSentiment(features);
  const summary = summarize(features.sentences, features.subject);
  const intent = detectIntent(features, urgency);
  return {
    // A pressure tactic ("today", "urgent", a CEO's name) must not outrank the risk verdict.
    urgency:
      security.verdict === "dangerous"
        ? "low"
        : security.verdict === "suspicious" && urgency.level === "high"
          ? "medium"
          : urgency.level,
    sentiment: sentiment.label,
    summary,
    category,
    importance: scoreImportance(features, urgency, category, security.verdict, context),
    keyPoints: keyPoints(features, urgency, summary, attachments),
    suggestedActions: suggestActions(features, urgency, category, security, attachments, intent),
    responseTime: suggestResponseTime(features, urgency, security.verdict, intent),
    // Nothing is learnt from a likely phish: its claims about the sender are not facts.
    newMemories:
      security.verdict === "safe" ? learnMemories(features, urgency, category, attachments, context) : [],
    engine: "local",
    version: LOCAL_ANALYZER_VERSION,
    security,
  };
}
