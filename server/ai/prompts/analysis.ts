import { AI_CATEGORIES, RESPONSE_TIMES } from "../../../contract/ai.ts";
import { UNTRUSTED_RULES, untrusted } from "./untrusted.ts";

/** Bump with every wording change: stored analyses record it, so they can be redone. */
export const ANALYSIS_PROMPT_VERSION = "analysis-2026-01";

export const ANALYSIS_SYSTEM = `You are the email analysis engine of Mailwise, an email client.
Read one email and describe it for its recipient as JSON with these fields:
- urgency: high, medium or low. sentiment: positive, negative or neutral.
- summary: one or two plain sentences.
- category: one of ${AI_CATEGORIES.join(", ")}.
- importance: integer 0-10 for this recipient (10 = must act now).
- keyPoints and suggestedActions: at most 3 short items each.
- responseTime: one of ${RESPONSE_TIMES.join(", ")}.
- newMemories: at most 3 durable facts about the sender or commitments (no secrets, no codes).
- needsReply: true when the sender expects an answer from the recipient.
${UNTRUSTED_RULES}`;

export interface AnalysisPromptInput {
  fromName: string;
  fromAddress: string;
  subject: string;
  body: string;
  receivedAt: Date;
  /** What the agent knows: VIP, replied before, usually ignored. */
  hints: string[];
}

/** The user message: known context first, then the email as delimited data. */
export function analysisPrompt(input: AnalysisPromptInput): string {
  const context = input.hints.length > 0 ? `Known about this sender: ${input.hints.join("; ")}.\n` : "";
  const email = `From: ${input.fromName} <${input.fromAddress}>\nDate: ${input.receivedAt.toISOString()}\nSubject: ${input.subject}\n\n${input.body.slice(0, 8000)}`;
  return `${context}Analyse the email below.\n${untrusted("EMAIL", email)}`;
}
