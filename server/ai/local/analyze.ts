import type { EmailAnalysis } from "../../../contract/ai.ts";
import { suggestActions } from "./actions.ts";
import { categorize } from "./category.ts";
import { extractFeatures } from "./features.ts";
import { scoreImportance } from "./importance.ts";
import { keyPoints } from "./key-points.ts";
import { learnMemories } from "./memories.ts";
import { suggestResponseTime } from "./response-time.ts";
import { scanEmail } from "./security/scan.ts";
import { analyzeSentiment } from "./sentiment.ts";
import { summarize } from "./summary.ts";
import type { AnalyzerContext, AnalyzerInput } from "./types.ts";
import { assessUrgency } from "./urgency.ts";

/** Bump when rules, lexicons or weights change, so stored analyses can be redone. */
export const LOCAL_ANALYZER_VERSION = "local-1.0.0";

/**
 * The offline analyzer: every field of the spec's AI analysis from NLP libraries and rules,
 * with no model download and no network. Pure: the same input and context give the same output.
 */
export function analyzeEmail(input: AnalyzerInput, context: AnalyzerContext = {}): EmailAnalysis {
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
    { contactDomains: context.contactDomains ?? [] },
  );
  if (features.injectionAttempt) {
    security.reasons.push({
      code: "instructions_to_ai",
      severity: "info",
      message: "The message contains instructions aimed at an AI assistant; they were ignored.",
    });
  }
  const urgency = assessUrgency(features);
  const { category } = categorize(features);
  // The opening sentences carry the tone of an email; VADER's cost grows with length, so
  // sentiment reads the subject and the first few sentences only.
  const opening = features.sentences.slice(0, 4);
  const sentimentText = `${features.subject}. ${opening.map((s) => s.text).join(" ")}`.slice(0, 320);
  const sentiment = analyzeSentiment(sentimentText, {
    sentences: opening,
    sentiment: features.parsed.sentiment,
  });
  const summary = summarize(features.sentences, features.subject);
  return {
    urgency: security.verdict === "dangerous" ? "low" : urgency.level,
    sentiment: sentiment.label,
    summary,
    category,
    importance: scoreImportance(features, urgency, category, security.verdict, context),
    keyPoints: keyPoints(features, urgency, summary, attachments),
    suggestedActions: suggestActions(features, urgency, category, security, attachments),
    responseTime: suggestResponseTime(features, urgency, category, security.verdict),
    // Nothing is learnt from a likely phish: its claims about the sender are not facts.
    newMemories:
      security.verdict === "dangerous" ? [] : learnMemories(features, urgency, category, attachments),
    engine: "local",
    version: LOCAL_ANALYZER_VERSION,
    security,
  };
}
