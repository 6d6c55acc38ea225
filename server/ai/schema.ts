import { z } from "zod";
import { AI_CATEGORIES, RESPONSE_TIMES, SENTIMENTS, URGENCIES } from "../../contract/ai.ts";

/**
 * What a model must return, validated before anything is stored or shown. Lengths are cut after
 * validation rather than constrained in the schema: strict structured-output modes reject
 * maxLength, and a too-long summary is still a usable summary.
 */
export const modelAnalysisSchema = z.object({
  urgency: z.enum(URGENCIES),
  sentiment: z.enum(SENTIMENTS),
  summary: z.string(),
  category: z.enum(AI_CATEGORIES),
  importance: z.number().int().min(0).max(10),
  keyPoints: z.array(z.string()).max(3),
  suggestedActions: z.array(z.string()).max(3),
  responseTime: z.enum(RESPONSE_TIMES),
  newMemories: z.array(z.string()).max(3),
  needsReply: z.boolean(),
});
export type ModelAnalysis = z.infer<typeof modelAnalysisSchema>;

export const modelRepliesSchema = z.object({ responses: z.array(z.string()).min(1).max(3) });
export const modelSuggestionsSchema = z.object({ suggestions: z.array(z.string()).min(1).max(3) });
export const modelImproveSchema = z.object({ improvedText: z.string() });
