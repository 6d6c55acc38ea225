/**
 * Queries and mutations for the AI and agent API (spec section 7, contract/ai.ts). Only types come
 * from the contract: its zod schemas would pull zod into the dashboard chunk, so the analysis an
 * email carries is checked by hand (readAnalysis).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  Agent,
  AgentPreferences,
  AiCategory,
  AiUsageResponse,
  EmailAnalysis,
  Engine,
  Fallback,
  IgnoreCategory,
  Memory,
  ResponseStyle,
  SecurityScan,
  Tone,
} from "../../../../contract/ai.ts";
import type { Email } from "../../../../contract/mail.ts";
import { toast } from "../../components/ui/toast-store.ts";
import { ApiError, apiRequest } from "../../lib/api.ts";
import { emailKeys } from "../../lib/mail-queries.ts";

/** Spec section 5, in the order the form shows them (kept in step with contract/ai.ts by type). */
export const TONE_OPTIONS = [
  "Professional",
  "Friendly",
  "Casual",
  "Formal",
  "Warm",
] as const satisfies readonly Tone[];
export const PRIORITY_OPTIONS = [
  "low",
  "medium",
  "high",
] as const satisfies readonly Agent["preferences"]["email_behavior"]["priority_handling"][];
export const IGNORE_OPTIONS = [
  "Newsletters",
  "Promotions",
  "Notifications",
  "Social Media",
] as const satisfies readonly IgnoreCategory[];
export const RESPONSE_STYLE_OPTIONS = [
  "professional",
  "friendly",
  "brief",
  "detailed",
] as const satisfies readonly ResponseStyle[];

/** Spec section 9. */
export const MAX_KEY_POINTS = 3;
export const MAX_SUGGESTED_ACTIONS = 3;
export const AGENT_LEARNING_ITEMS = 2;

/** Spec section 5: what a new agent starts with. */
export const DEFAULT_PREFERENCES: AgentPreferences = {
  email_signature: "",
  tone_preference: "Professional",
  reply_style: "",
  forbidden_phrases: [],
  vip_contacts: [],
  email_behavior: { ignore_categories: [], auto_draft: true, auto_send: false, priority_handling: "medium" },
};

export const AGENT_KEY = ["/api/agent"] as const;
export const AGENT_INSIGHTS_KEY = ["/api/agent/insights"] as const;
export const MEMORIES_KEY = ["/api/agent/memories"] as const;
export const AI_USAGE_KEY = ["/api/ai/usage"] as const;

export interface AgentInsights {
  totalMemories: number;
  totalConversations: number;
}

export function useAgent() {
  return useQuery<Agent | null>({ queryKey: AGENT_KEY });
}

export function useAgentInsights() {
  return useQuery<AgentInsights | null>({ queryKey: AGENT_INSIGHTS_KEY });
}

/** A spent AI budget says when to try again; anything else keeps the spec's text. */
function aiErrorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.code === "ai_budget_exceeded" ? err.message : fallback;
}

/** The person's AI usage and budget (Settings); fetched fresh each time the dialog opens. */
export function useAiUsage() {
  return useQuery<AiUsageResponse | null>({ queryKey: AI_USAGE_KEY, staleTime: 0 });
}

export function useMemories() {
  return useQuery<{ memories: Memory[] } | null>({ queryKey: MEMORIES_KEY });
}

/** Newest first (the server sorts the same way; sorting again keeps the card honest). */
export function newestMemories(memories: readonly Memory[], count: number): Memory[] {
  return [...memories].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt)).slice(0, count);
}

/**
 * What the Agent Learning card shows: what the agent learnt about the person's own correspondents
 * (whom they answer, and facts the analysis learns only about such senders), newest first. Writing
 * habits and senders they ignore stay in the full list of the agent dialog.
 */
export function correspondentMemories(memories: readonly Memory[], count: number): Memory[] {
  return newestMemories(
    memories.filter((m) => m.kind === "contact" || m.kind === "fact"),
    count,
  );
}

export interface AgentInput {
  name: string;
  personality: string;
  preferences: AgentPreferences;
}

/** Creates the agent when none exists, otherwise updates it (spec section 4). */
export function useSaveAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ existingId, input }: { existingId: string | null; input: AgentInput }) =>
      existingId
        ? apiRequest<Agent>("PATCH", `/api/agent/${encodeURIComponent(existingId)}`, input)
        : apiRequest<Agent>("POST", "/api/agent", input),
    onSuccess: (agent, { existingId }) => {
      queryClient.setQueryData(AGENT_KEY, agent);
      void queryClient.invalidateQueries({ queryKey: AGENT_INSIGHTS_KEY });
      toast({
        title: "Success",
        description: existingId ? "Agent configuration updated" : "Agent created",
      });
    },
    onError: () =>
      toast({ title: "Error", description: "Failed to save agent configuration", variant: "destructive" }),
  });
}

export function useDeleteMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>("DELETE", `/api/agent/memories/${encodeURIComponent(id)}`),
    onSuccess: (_void, id) => {
      queryClient.setQueryData<{ memories: Memory[] } | null>(MEMORIES_KEY, (old) =>
        old ? { memories: old.memories.filter((m) => m.id !== id) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: MEMORIES_KEY });
      void queryClient.invalidateQueries({ queryKey: AGENT_INSIGHTS_KEY });
    },
    onError: () => toast({ title: "Error", description: "Failed to delete memory", variant: "destructive" }),
  });
}

/** POST /api/agent/analyze/:id; the answer becomes the email's analysis in the cache. */
export function useAnalyseNow(email: Email) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<EmailAnalysis>("POST", `/api/agent/analyze/${encodeURIComponent(email.id)}`),
    onSuccess: (analysis) => {
      queryClient.setQueryData<Email>(emailKeys.detail(email.id), (old) => {
        const base = old ?? email;
        return { ...base, aiAnalysis: { ...base.aiAnalysis, ...analysis } };
      });
      // The analysis may move the email to another bucket.
      void queryClient.invalidateQueries({ queryKey: emailKeys.lists });
      void queryClient.invalidateQueries({ queryKey: MEMORIES_KEY });
      void queryClient.invalidateQueries({ queryKey: AGENT_INSIGHTS_KEY });
    },
    onError: (err) =>
      toast({
        title: "Error",
        description: aiErrorText(err, "Failed to analyze email"),
        variant: "destructive",
      }),
  });
}

export interface GeneratedResponses {
  responses: string[];
  engine: Engine;
  fallback?: Fallback;
}

/** POST /api/agent/response/:id {responseType}. */
export function useGenerateResponses(emailId: string) {
  return useMutation({
    mutationFn: (responseType: ResponseStyle) =>
      apiRequest<GeneratedResponses>("POST", `/api/agent/response/${encodeURIComponent(emailId)}`, {
        responseType,
      }),
    onError: (err) =>
      toast({
        title: "Error",
        description: aiErrorText(err, "Failed to generate responses"),
        variant: "destructive",
      }),
  });
}

type Loose = Record<string, unknown> | null | undefined;

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === "string");

/** The security scan stored with an email's analysis, also when the analysis itself was skipped. */
export function readSecurity(ai: Loose): SecurityScan | null {
  const s = ai?.security as Partial<SecurityScan> | undefined;
  if (!s || typeof s !== "object") return null;
  if (s.verdict !== "safe" && s.verdict !== "suspicious" && s.verdict !== "dangerous") return null;
  return {
    verdict: s.verdict,
    score: typeof s.score === "number" ? s.score : 0,
    reasons: Array.isArray(s.reasons) ? s.reasons.filter((r) => typeof r?.message === "string") : [],
    authentication: s.authentication ?? { spf: "unknown", dkim: "unknown", dmarc: "unknown" },
  };
}

/**
 * The full analysis of an email, or null when there is none (not analysed yet, or skipped because
 * the agent ignores its category: those carry only a category and the security scan).
 */
export function readAnalysis(ai: Loose): EmailAnalysis | null {
  if (!ai || typeof ai.summary !== "string") return null;
  if (typeof ai.importance !== "number" || typeof ai.category !== "string") return null;
  if (!isStringArray(ai.keyPoints) || !isStringArray(ai.suggestedActions)) return null;
  const security = readSecurity(ai);
  if (!security) return null;
  return {
    urgency: ai.urgency as EmailAnalysis["urgency"],
    sentiment: ai.sentiment as EmailAnalysis["sentiment"],
    summary: ai.summary,
    category: ai.category as AiCategory,
    importance: Math.max(0, Math.min(10, Math.round(ai.importance))),
    keyPoints: ai.keyPoints,
    suggestedActions: ai.suggestedActions,
    responseTime: ai.responseTime as EmailAnalysis["responseTime"],
    newMemories: isStringArray(ai.newMemories) ? ai.newMemories : [],
    engine: typeof ai.engine === "string" ? ai.engine : "local",
    ...(ai.fallback && typeof ai.fallback === "object" ? { fallback: ai.fallback as Fallback } : {}),
    version: typeof ai.version === "string" ? ai.version : "",
    security,
  };
}

const FALLBACK_REASONS: Record<Fallback["reason"], string> = {
  malformed_output: "the model's answer was malformed",
  unsafe_output: "the model's answer was unsafe",
  timeout: "the model timed out",
  rate_limited: "the model was rate limited",
  provider_error: "the model was unavailable",
  budget_exceeded: "your AI budget was spent",
};

/** "local" is the offline analyzer; anything else is "<provider>:<model>". */
export function engineLabel(engine: string, fallback?: Fallback): string {
  const name =
    engine === "local"
      ? "Local analyzer"
      : (() => {
          const at = engine.indexOf(":");
          return at < 0 ? engine : `${engine.slice(at + 1)} (${engine.slice(0, at)})`;
        })();
  return fallback ? `${name}, because ${FALLBACK_REASONS[fallback.reason] ?? "the model failed"}` : name;
}
