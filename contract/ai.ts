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

/** Which engine produced an answer: "local" or "<provider>:<model>". */
export const engineSchema = z.string().regex(/^(local|[a-z][a-z-]*:[^\s]+)$/);
export type Engine = z.infer<typeof engineSchema>;

/** Why the local engine answered in place of the configured model. */
export const fallbackSchema = z.object({
  from: z.string(),
  reason: z.enum([
    "malformed_output",
    "unsafe_output",
    "timeout",
    "rate_limited",
    "provider_error",
    /** The person's budget of model calls is spent (background work only; requests get 429). */
    "budget_exceeded",
  ]),
});
export type Fallback = z.infer<typeof fallbackSchema>;

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
  /** "local" (offline analyzer) or "<provider>:<model>", e.g. "openai-compatible:gpt-4o-mini". */
  engine: engineSchema,
  /** Set when a configured model failed and the local engine answered instead. */
  fallback: fallbackSchema.optional(),
  /** Rules/prompt version that produced this analysis, so stale analyses can be redone. */
  version: z.string(),
  security: securityScanSchema,
});
export type EmailAnalysis = z.infer<typeof emailAnalysisSchema>;

// ---------------------------------------------------------------------------------------------
// Agent (spec sections 3, 4, 5): preferences, memories, insights, drafting.

export const TONES = ["Professional", "Friendly", "Casual", "Formal", "Warm"] as const;
export type Tone = (typeof TONES)[number];
export const PRIORITY_HANDLINGS = ["low", "medium", "high"] as const;
export const IGNORE_CATEGORIES = ["Newsletters", "Promotions", "Notifications", "Social Media"] as const;
export type IgnoreCategory = (typeof IGNORE_CATEGORIES)[number];
export const RESPONSE_STYLES = ["professional", "friendly", "brief", "detailed"] as const;
export type ResponseStyle = (typeof RESPONSE_STYLES)[number];

/** Trimmed, non-empty, no duplicates (case-insensitive): spec section 5 for both lists. */
const itemList = (what: string) =>
  z
    .array(z.string().trim().min(1, `${what} must not be empty`).max(200))
    .max(200)
    .refine((items) => new Set(items.map((i) => i.toLowerCase())).size === items.length, {
      message: `${what} must not contain duplicates`,
    });

/** The behaviour fields without defaults: a patch that leaves one out must not reset it. */
const emailBehaviorFields = {
  ignore_categories: z
    .array(z.enum(IGNORE_CATEGORIES))
    .refine((items) => new Set(items).size === items.length, { message: "duplicate category" }),
  auto_draft: z.boolean(),
  auto_send: z.boolean(),
  priority_handling: z.enum(PRIORITY_HANDLINGS),
};

export const emailBehaviorSchema = z.object({
  ignore_categories: emailBehaviorFields.ignore_categories.default([]),
  auto_draft: emailBehaviorFields.auto_draft.default(true),
  auto_send: emailBehaviorFields.auto_send.default(false),
  priority_handling: emailBehaviorFields.priority_handling.default("medium"),
});
export type EmailBehavior = z.infer<typeof emailBehaviorSchema>;

export const agentPreferencesSchema = z.object({
  email_signature: z.string().max(2000).default(""),
  tone_preference: z.enum(TONES).default("Professional"),
  reply_style: z.string().max(2000).default(""),
  forbidden_phrases: itemList("Forbidden phrase").default([]),
  vip_contacts: itemList("VIP contact").default([]),
  email_behavior: emailBehaviorSchema.default({
    ignore_categories: [],
    auto_draft: true,
    auto_send: false,
    priority_handling: "medium",
  }),
});
export type AgentPreferences = z.infer<typeof agentPreferencesSchema>;

/** POST /api/agent. */
export const agentCreateSchema = z.object({
  name: z.string().trim().min(1, "Agent name is required").max(100),
  personality: z.string().max(500).optional(),
  preferences: agentPreferencesSchema.default(agentPreferencesSchema.parse({})),
});
/** PATCH /api/agent/:id: any of the fields; preferences replace the stored ones field by field. */
export const agentPatchSchema = z.object({
  name: z.string().trim().min(1, "Agent name is required").max(100).optional(),
  personality: z.string().max(500).optional(),
  preferences: z
    .object({
      email_signature: z.string().max(2000),
      tone_preference: z.enum(TONES),
      reply_style: z.string().max(2000),
      forbidden_phrases: itemList("Forbidden phrase"),
      vip_contacts: itemList("VIP contact"),
      email_behavior: z.object(emailBehaviorFields).partial(),
    })
    .partial()
    .optional(),
});

export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  personality: z.string(),
  /** The signed-in person's address. */
  email: z.string(),
  preferences: agentPreferencesSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Agent = z.infer<typeof agentSchema>;
/** GET /api/agent: the agent, or null before one is set up. */
export const agentResponseSchema = agentSchema.nullable();

export const agentInsightsSchema = z.object({
  totalMemories: z.number().int().min(0),
  totalConversations: z.number().int().min(0),
});

export const MEMORY_KINDS = ["contact", "style", "ignore", "fact"] as const;
export const memorySchema = z.object({
  id: z.string(),
  /** contact: who matters; style: how the user writes; ignore: what they skip; fact: from mail. */
  kind: z.enum(MEMORY_KINDS),
  content: z.string(),
  /** analysis | reply | archive | sent */
  source: z.string(),
  /** How many times it was observed. */
  weight: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Memory = z.infer<typeof memorySchema>;
export const memoryListSchema = z.object({ memories: z.array(memorySchema) });

export const composeSuggestionsRequestSchema = z.object({
  subject: z.string().max(1000).default(""),
  body: z.string().max(50_000).default(""),
  /** The original message when replying. */
  replyTo: z.string().max(100_000).default(""),
});
export const composeSuggestionsResponseSchema = z.object({
  suggestions: z.array(z.string()),
  engine: engineSchema,
  fallback: fallbackSchema.optional(),
});

export const improveTextRequestSchema = z.object({ text: z.string().trim().min(1).max(50_000) });
export const improveTextResponseSchema = z.object({
  improvedText: z.string(),
  engine: engineSchema,
  fallback: fallbackSchema.optional(),
});

export const agentReplyRequestSchema = z.object({
  responseType: z.enum(RESPONSE_STYLES).default("professional"),
});
export const agentReplyResponseSchema = z.object({
  responses: z.array(z.string()),
  engine: engineSchema,
  fallback: fallbackSchema.optional(),
});

export const sentReplySchema = z.object({
  id: z.string(),
  emailId: z.string().nullable(),
  to: z.string(),
  subject: z.string(),
  engine: engineSchema,
  sentAt: z.string(),
});
export const sentRepliesResponseSchema = z.object({ replies: z.array(sentReplySchema) });

/** One window of the per-user budget of model calls; `limit` null means no limit is set. */
export const aiBudgetWindowSchema = z.object({
  used: z.number().int().min(0),
  limit: z.number().int().min(1).nullable(),
  /** When this window's count starts again (ISO time). */
  resetsAt: z.string(),
});
export type AiBudgetWindow = z.infer<typeof aiBudgetWindowSchema>;

/** GET /api/ai/usage: the signed-in person's AI usage, as the Settings dialog shows it. */
export const aiUsageResponseSchema = z.object({
  /** The configured AI provider: "local" (never counted against the budget), "openai", ... */
  provider: z.string(),
  /** False for the local engine: its calls cost nothing and are not counted. */
  budgeted: z.boolean(),
  /** AI requests the person made today (UTC), whichever engine answered. */
  requestsToday: z.number().int().min(0),
  modelCalls: z.object({ minute: aiBudgetWindowSchema, day: aiBudgetWindowSchema }),
});
export type AiUsageResponse = z.infer<typeof aiUsageResponseSchema>;
