import { z } from "zod";

/**
 * The AI analysis of one email as the API returns it (spec section 3 "AI analysis" plus the
 * engine that produced it and the security scan). Both engines, the offline local analyzer and
 * an LLM provider, must produce exactly this shape so the Insights panel never branches on engine.
 */

/**
 * Categories the analyzer assigns. The spec's bucket classifier maps personal, work, newsletter,
 * promotions and social to their buckets; the finer finance, travel, security and notification
 * (and other) land in the "other" bucket but stay visible as the category badge.
 *   personal      mail from a person to the user, not about their job
 *   work          colleagues, clients, projects, meetings, work tools
 *   newsletter    subscribed bulk content: newsletters, digests, mailing-list traffic
 *   promotions    marketing: sales, offers, ads (most spam lands here)
 *   social        social networks and community sites
 *   finance       invoices, receipts, payments, bank and card statements
 *   travel        flights, hotels, bookings, itineraries
 *   security      sign-in alerts, password resets, verification codes
 *   notification  other automated service notices (shipping, commits, system alerts)
 *   other         none of the above
 */
export const AI_CATEGORIES = [
  "personal",
  "work",
  "newsletter",
  "promotions",
  "social",
  "finance",
  "travel",
  "security",
  "notification",
  "other",
] as const;
export type AiCategory = (typeof AI_CATEGORIES)[number];

export const URGENCIES = ["high", "medium", "low"] as const;
export type Urgency = (typeof URGENCIES)[number];

export const SENTIMENTS = ["positive", "negative", "neutral"] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

/** Suggested response time, coarsest useful steps: the panel shows it as a badge. */
export const RESPONSE_TIMES = ["Within 1 hour", "Today", "Within 2 days", "No response needed"] as const;
export type ResponseTime = (typeof RESPONSE_TIMES)[number];

export const SECURITY_VERDICTS = ["safe", "suspicious", "dangerous"] as const;
export type SecurityVerdict = (typeof SECURITY_VERDICTS)[number];

export const AUTH_RESULTS = [
  "pass",
  "fail",
  "softfail",
  "neutral",
  "none",
  "temperror",
  "permerror",
  "policy",
  "unknown",
] as const;
export type AuthResult = (typeof AUTH_RESULTS)[number];

export const securityReasonSchema = z.object({
  /** Stable machine code, e.g. "dmarc_fail", "lookalike_domain", "link_mismatch". */
  code: z.string(),
  severity: z.enum(["info", "warning", "danger"]),
  /** One human-readable sentence for the reader and the Insights panel. */
  message: z.string(),
});
export type SecurityReason = z.infer<typeof securityReasonSchema>;

export const securityScanSchema = z.object({
  verdict: z.enum(SECURITY_VERDICTS),
  /** 0 (nothing found) upward; verdict thresholds are documented in server/ai/local/security/scan.ts. */
  score: z.number().min(0),
  reasons: z.array(securityReasonSchema),
  authentication: z.object({
    spf: z.enum(AUTH_RESULTS),
    dkim: z.enum(AUTH_RESULTS),
    dmarc: z.enum(AUTH_RESULTS),
  }),
});
export type SecurityScan = z.infer<typeof securityScanSchema>;

export const emailAnalysisSchema = z.object({
  urgency: z.enum(URGENCIES),
  sentiment: z.enum(SENTIMENTS),
  summary: z.string(),
  category: z.enum(AI_CATEGORIES),
  importance: z.number().int().min(0).max(10),
  keyPoints: z.array(z.string()).max(3),
  suggestedActions: z.array(z.string()).max(3),
  responseTime: z.enum(RESPONSE_TIMES),
  /** Short facts the agent could learn from this email (sender patterns, deadlines). */
  newMemories: z.array(z.string()).max(3),
  engine: z.enum(["local", "llm"]),
  /** Rules/prompt version that produced this analysis, so stale analyses can be redone. */
  version: z.string(),
  security: securityScanSchema,
});
export type EmailAnalysis = z.infer<typeof emailAnalysisSchema>;
