import type { FastifyInstance } from "fastify";
import {
  type AiUsageResponse,
  agentCreateSchema,
  agentPatchSchema,
  agentReplyRequestSchema,
  composeSuggestionsRequestSchema,
  improveTextRequestSchema,
} from "../../contract/ai.ts";
import { sessionOf } from "../http/auth-guard.ts";
import { idParam, parseInput } from "../mail/validation.ts";
import type { AiServices } from "./services.ts";

/** The AI and agent API (spec section 7). Thin: validate, call one service, answer. */
export function registerAiRoutes(app: FastifyInstance, ai: AiServices): void {
  const guarded = { preHandler: app.requireSession };

  app.get("/api/agent", guarded, async (request) => ai.agents.get(sessionOf(request).userId));

  app.post("/api/agent", guarded, async (request, reply) => {
    const body = parseInput(agentCreateSchema, request.body);
    return reply.status(201).send(await ai.agents.create(sessionOf(request).userId, body));
  });

  app.patch("/api/agent/:id", guarded, async (request) => {
    const body = parseInput(agentPatchSchema, request.body);
    return ai.agents.update(sessionOf(request).userId, idParam(request.params, "agent"), body);
  });

  app.get("/api/agent/insights", guarded, async (request) => ai.memories.insights(sessionOf(request).userId));

  app.get("/api/agent/memories", guarded, async (request) => ({
    memories: await ai.memories.list(sessionOf(request).userId),
  }));

  app.delete("/api/agent/memories/:id", guarded, async (request, reply) => {
    await ai.memories.remove(sessionOf(request).userId, idParam(request.params, "memory"));
    return reply.status(204).send();
  });

  app.get("/api/agent/sent-replies", guarded, async (request) => ({
    replies: await ai.autoDrafter.sentReplies(sessionOf(request).userId),
  }));

  app.post("/api/agent/analyze/:id", guarded, async (request) => {
    const { userId } = sessionOf(request);
    const id = idParam(request.params);
    const analysis = await ai.analysis.analyseNow(userId, id);
    await ai.usage.conversation(userId, "analyze", analysis.engine, id);
    return ai.presentAnalysis(analysis);
  });

  app.post("/api/agent/response/:id", guarded, async (request) => {
    const { userId } = sessionOf(request);
    const id = idParam(request.params);
    const body = parseInput(agentReplyRequestSchema, request.body);
    const drafts = await ai.drafting.replies(userId, id, body.responseType);
    await ai.usage.conversation(userId, "response", drafts.engine, id);
    return {
      responses: drafts.texts,
      engine: drafts.engine,
      ...(drafts.fallback ? { fallback: drafts.fallback } : {}),
    };
  });

  app.post("/api/ai/compose-suggestions", guarded, async (request) => {
    const { userId } = sessionOf(request);
    const body = parseInput(composeSuggestionsRequestSchema, request.body);
    const drafts = await ai.drafting.composeSuggestions(userId, body);
    await ai.usage.conversation(userId, "compose", drafts.engine);
    return {
      suggestions: drafts.texts,
      engine: drafts.engine,
      ...(drafts.fallback ? { fallback: drafts.fallback } : {}),
    };
  });

  app.get("/api/ai/usage", guarded, async (request): Promise<AiUsageResponse> => {
    const usage = await ai.budget.usage(sessionOf(request).userId);
    return {
      provider: ai.provider,
      budgeted: ai.llm.enabled,
      requestsToday: usage.requestsToday,
      modelCalls: { minute: usage.minute, day: usage.day },
    };
  });

  app.post("/api/ai/improve-text", guarded, async (request) => {
    const { userId } = sessionOf(request);
    const body = parseInput(improveTextRequestSchema, request.body);
    const drafts = await ai.drafting.improve(userId, body.text);
    await ai.usage.conversation(userId, "improve", drafts.engine);
    return {
      improvedText: drafts.texts[0] ?? body.text,
      engine: drafts.engine,
      ...(drafts.fallback ? { fallback: drafts.fallback } : {}),
    };
  });
}
