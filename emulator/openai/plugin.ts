import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { answer, type JsonSchema, tokens, viewPrompt } from "./answer.ts";

/**
 * An OpenAI-compatible chat-completions endpoint under {EMU}/api.openai.com/v1, so the app's
 * whole model path (SDK, HTTP, structured output, errors, retries, timeouts) runs against it.
 * Keys must look like "sk-..."; any such key is accepted.
 */

const PREFIX = "/api.openai.com/v1";
export const EMULATED_MODELS = ["gpt-4o-mini", "gpt-4o", "mw-emulated-small", "mw-emulated-large"] as const;

export interface OpenAiFaults {
  /** Delay before every answer. */
  latencyMs: number;
  /** The next N completions answer 429 rate_limit_exceeded with retry-after. */
  rateLimited: number;
  retryAfterSeconds: number;
  /** The next N completions answer 500. */
  serverErrors: number;
  /** The next N completions answer with text that is not the requested JSON. */
  malformed: number;
}

const NO_FAULTS: OpenAiFaults = {
  latencyMs: 0,
  rateLimited: 0,
  retryAfterSeconds: 1,
  serverErrors: 0,
  malformed: 0,
};

export interface OpenAiState {
  faults: OpenAiFaults;
  /** Completions answered (any status), for tests that count calls. */
  requests: number;
  /** Highest number of completions in flight at once. */
  maxInFlight: number;
  inFlight: number;
}

const faultsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(120_000),
    rateLimited: z.number().int().min(0),
    retryAfterSeconds: z.number().min(0).max(600),
    serverErrors: z.number().int().min(0),
    malformed: z.number().int().min(0),
  })
  .partial();

const messageSchema = z.object({ role: z.string(), content: z.unknown() });
const completionSchema = z.object({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  response_format: z
    .object({
      type: z.string(),
      json_schema: z.object({ name: z.string().optional(), schema: z.unknown() }).optional(),
    })
    .optional(),
});

function openAiError(
  reply: FastifyReply,
  status: number,
  type: string,
  code: string | null,
  message: string,
) {
  return reply.code(status).send({ error: { message, type, param: null, code } });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function registerOpenAiRoutes(app: FastifyInstance, admin: boolean): OpenAiState {
  const state: OpenAiState = { faults: { ...NO_FAULTS }, requests: 0, maxInFlight: 0, inFlight: 0 };

  const authorized = (header: string | undefined) => /^Bearer sk-[\w-]{4,}$/.test(header ?? "");

  app.get(`${PREFIX}/models`, async (request, reply) => {
    if (!authorized(request.headers.authorization)) {
      return openAiError(
        reply,
        401,
        "invalid_request_error",
        "invalid_api_key",
        "Incorrect API key provided.",
      );
    }
    return {
      object: "list",
      data: EMULATED_MODELS.map((id) => ({
        id,
        object: "model",
        created: 1_700_000_000,
        owned_by: "mailwise",
      })),
    };
  });

  app.post(`${PREFIX}/chat/completions`, async (request, reply) => {
    if (!authorized(request.headers.authorization)) {
      return openAiError(
        reply,
        401,
        "invalid_request_error",
        "invalid_api_key",
        "Incorrect API key provided.",
      );
    }
    const parsed = completionSchema.safeParse(request.body);
    if (!parsed.success) {
      return openAiError(reply, 400, "invalid_request_error", null, parsed.error.issues[0]?.message ?? "bad");
    }
    state.requests += 1;
    state.inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      const { faults } = state;
      if (faults.latencyMs > 0) await sleep(faults.latencyMs);
      if (faults.rateLimited > 0) {
        faults.rateLimited -= 1;
        reply.header("retry-after", String(faults.retryAfterSeconds));
        return openAiError(
          reply,
          429,
          "requests",
          "rate_limit_exceeded",
          "Rate limit reached for requests. Please try again later.",
        );
      }
      if (faults.serverErrors > 0) {
        faults.serverErrors -= 1;
        return openAiError(
          reply,
          500,
          "server_error",
          null,
          "The server had an error processing your request.",
        );
      }
      const body = parsed.data;
      const view = viewPrompt(body.messages);
      const schema =
        body.response_format?.type === "json_schema"
          ? (body.response_format.json_schema?.schema as JsonSchema | undefined)
          : undefined;
      let content = answer(view, schema);
      if (faults.malformed > 0) {
        faults.malformed -= 1;
        content = `Sure! Here is the analysis: {"urgency": "very", "summary": ${JSON.stringify(view.data.slice(0, 20))}`;
      }
      const promptTokens = tokens(view.system + view.user);
      const completionTokens = tokens(content);
      return {
        id: `chatcmpl-${randomUUID()}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          { index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      };
    } finally {
      state.inFlight -= 1;
    }
  });

  if (admin) {
    app.get("/_admin/openai/faults", async () => ({ ...state }));
    app.post("/_admin/openai/faults", async (request, reply) => {
      const parsed = faultsSchema.safeParse(request.body ?? {});
      if (!parsed.success) return reply.code(400).send({ error: "invalid_request" });
      state.faults = { ...state.faults, ...parsed.data };
      return { ...state };
    });
    app.delete("/_admin/openai/faults", async () => {
      state.faults = { ...NO_FAULTS };
      state.requests = 0;
      state.maxInFlight = 0;
      return { ...state };
    });
  }
  return state;
}
