import type { z } from "zod";
import type {
  AgentPreferences,
  agentPreferencesSchema,
  composeSuggestionsRequestSchema,
  Fallback,
  ResponseStyle,
} from "../../../contract/ai.ts";
import type { Db } from "../../db/client.ts";
import { signatureTextFor } from "../../signatures/signature-service.ts";
import type { AgentService } from "../agent-service.ts";
import { loadEmail, plainText } from "../email-source.ts";
import { analyzeEmail } from "../local/index.ts";
import type { MemoryService } from "../memory-service.ts";
import type { Llm } from "../models/llm.ts";
import {
  composePrompt,
  composeSystem,
  improvePrompt,
  improveSystem,
  replyPrompt,
  replySystem,
} from "../prompts/drafting.ts";
import { modelImproveSchema, modelRepliesSchema, modelSuggestionsSchema } from "../schema.ts";
import type { UsageRecorder } from "../usage.ts";
import { containsForbidden, stripForbidden } from "./forbidden.ts";
import { improveLocally } from "./local-improve.ts";
import { composeLocally, draftRepliesLocally, type ReplySource } from "./local-replies.ts";
import { quotedFrom } from "./quoted-from.ts";

type Preferences = z.output<typeof agentPreferencesSchema>;

export interface Drafts {
  texts: string[];
  engine: string;
  fallback?: Fallback;
}

export interface DraftingDeps {
  db: Db;
  llm: Llm;
  agents: AgentService;
  memories: MemoryService;
  usage: UsageRecorder;
  defaults: AgentPreferences;
}

/** Cleans a model's replies: no forbidden phrase survives, blanks are dropped. */
function clean(texts: readonly string[], prefs: Preferences): string[] {
  return texts.map((t) => stripForbidden(t, prefs.forbidden_phrases)).filter((t) => t.trim() !== "");
}

/**
 * Replies, compose suggestions and text improvement. The model answers when configured; the
 * local engine otherwise or when the model fails. Either way forbidden phrases are checked after
 * generation: a model answer containing one is regenerated once, then stripped.
 */
export function createDraftingService(deps: DraftingDeps) {
  /**
   * The agent's preferences with the signature of the mail account (decision 0064: the account's
   * signature is the one place it is set; the agent's own field is no longer read).
   */
  async function prefsOf(userId: string, accountId?: string): Promise<Preferences> {
    const prefs = (await deps.agents.settings(userId))?.preferences ?? deps.defaults;
    return { ...prefs, email_signature: await signatureTextFor(deps.db, userId, accountId) };
  }

  async function viaModel<S extends z.ZodType>(
    userId: string,
    schema: S,
    system: string,
    prompt: string,
    pick: (value: z.infer<S>) => string[],
    prefs: Preferences,
    mode: "interactive" | "background",
  ): Promise<{ texts: string[]; engine: string } | { fallback: Fallback } | undefined> {
    if (!deps.llm.enabled) return undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await deps.llm.structured({ userId, task: "drafting", schema, system, prompt, mode });
      if (!result.ok) return { fallback: result.fallback };
      const texts = pick(result.value);
      if (attempt === 1 || !texts.some((t) => containsForbidden(t, prefs.forbidden_phrases))) {
        const cleaned = clean(texts, prefs);
        if (cleaned.length > 0) return { texts: cleaned, engine: result.engine };
        return { fallback: { from: result.engine, reason: "malformed_output" } };
      }
    }
    return undefined;
  }

  async function replies(
    userId: string,
    emailId: string,
    style: ResponseStyle,
    mode: "interactive" | "background" = "interactive",
  ): Promise<Drafts & { source: ReplySource }> {
    const row = await loadEmail(deps.db, userId, emailId);
    const prefs = await prefsOf(userId, row.accountId);
    const text = plainText(row);
    const source: ReplySource = {
      senderName: row.fromName,
      senderAddress: row.fromAddress,
      subject: row.subject,
      body: text,
      keyPoints: ((row.aiAnalysis?.keyPoints as string[] | undefined) ?? []).filter(
        (k) => typeof k === "string",
      ),
    };
    const model = await viaModel(
      userId,
      modelRepliesSchema,
      replySystem(prefs, style),
      replyPrompt(
        { from: `${row.fromName} <${row.fromAddress}>`, subject: row.subject, body: text },
        prefs.email_signature,
      ),
      (v) => v.responses,
      prefs,
      mode,
    );
    if (model && "texts" in model) return { ...model, source };
    if (source.keyPoints.length === 0) {
      source.keyPoints = analyzeEmail({
        from: { name: row.fromName, address: row.fromAddress },
        subject: row.subject,
        bodyText: text,
        bodyHtml: null,
        receivedAt: row.receivedAt,
      }).keyPoints;
    }
    const learned = await deps.memories.style(userId);
    const texts = clean(draftRepliesLocally(source, prefs, style, learned), prefs);
    return { texts, engine: "local", ...(model ? { fallback: model.fallback } : {}), source };
  }

  return {
    replies,

    async composeSuggestions(
      userId: string,
      input: z.output<typeof composeSuggestionsRequestSchema>,
    ): Promise<Drafts> {
      const prefs = await prefsOf(userId);
      const model = await viaModel(
        userId,
        modelSuggestionsSchema,
        composeSystem(prefs),
        composePrompt(input),
        (v) => v.suggestions,
        prefs,
        "interactive",
      );
      if (model && "texts" in model) return model;
      const fallback = model ? { fallback: model.fallback } : {};
      let texts: string[];
      if (input.replyTo.trim()) {
        const from = quotedFrom(input.replyTo);
        const source: ReplySource = {
          senderName: from?.name?.trim() ?? "",
          senderAddress: from?.address ?? "",
          subject: input.subject,
          body: input.replyTo.replace(/^-+\s*Original Message\s*-+$/im, ""),
          keyPoints: [],
        };
        texts = draftRepliesLocally(source, prefs, "professional", await deps.memories.style(userId));
        if (input.body.trim()) texts.unshift(improveLocally(input.body, prefs.tone_preference));
        texts = texts.slice(0, 3);
      } else {
        texts = composeLocally(
          input.subject,
          input.body.trim() ? improveLocally(input.body, prefs.tone_preference) : "",
          prefs,
        );
      }
      return { texts: clean(texts, prefs), engine: "local", ...fallback };
    },

    async improve(userId: string, text: string): Promise<Drafts> {
      const prefs = await prefsOf(userId);
      const model = await viaModel(
        userId,
        modelImproveSchema,
        improveSystem(prefs),
        improvePrompt(text),
        (v) => [v.improvedText],
        prefs,
        "interactive",
      );
      if (model && "texts" in model) return model;
      const improved = stripForbidden(improveLocally(text, prefs.tone_preference), prefs.forbidden_phrases);
      return { texts: [improved], engine: "local", ...(model ? { fallback: model.fallback } : {}) };
    },
  };
}

export type DraftingService = ReturnType<typeof createDraftingService>;
