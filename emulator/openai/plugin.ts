import { randomUUID } from "node:crypto";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
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

const messageSchema = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
  content: z.unknown(),
});
const responseFormatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    json_schema: z.object({
      name: z.string().min(1),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);
const completionSchema = z.object({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  response_format: responseFormatSchema.optional(),
});

interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

function errorBody(type: string, code: string | null, message: string, param: string | null = null) {
  return { error: { message, type, param, code } } satisfies OpenAiErrorBody;
}

function openAiError(
  reply: FastifyReply,
  status: number,
  type: string,
  code: string | null,
  message: string,
  param: string | null = null,
) {
  return reply.code(status).send(errorBody(type, code, message, param));
}

/** `messages[0].role`, the way OpenAI names a parameter in its errors. */
function paramName(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join("");
}

/** The first problem with a request body, worded and coded as OpenAI words its 400s. */
function invalidBody(error: z.ZodError): OpenAiErrorBody {
  const issue = error.issues[0];
  if (!issue || issue.path.length === 0) {
    return errorBody("invalid_request_error", null, "The request body must be a JSON object.");
  }
  const param = paramName(issue.path);
  if (issue.code === "invalid_type" && issue.input === undefined) {
    return errorBody(
      "invalid_request_error",
      "missing_required_parameter",
      `Missing required parameter: '${param}'.`,
      param,
    );
  }
  if (issue.code === "too_small" && issue.origin === "array") {
    return errorBody(
      "invalid_request_error",
      "empty_array",
      `Invalid '${param}': empty array. Expected an array with minimum length ${issue.minimum}, but got an empty array instead.`,
      param,
    );
  }
  const code = issue.code === "invalid_type" ? "invalid_type" : "invalid_value";
  return errorBody("invalid_request_error", code, `Invalid value for '${param}': ${issue.message}`, param);
}

/** Shows enough of a wrong key to recognise it, as OpenAI does, never the whole of it. */
function maskKey(key: string): string {
  return key.length <= 8
    ? "*".repeat(key.length)
    : `${key.slice(0, 3)}${"*".repeat(key.length - 7)}${key.slice(-4)}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function registerOpenAiRoutes(app: FastifyInstance, admin: boolean): OpenAiState {
  const state: OpenAiState = { faults: { ...NO_FAULTS }, requests: 0, maxInFlight: 0, inFlight: 0 };

  // Its own encapsulated scope, so authentication runs before the body is parsed and every
  // failure (bad JSON, wrong content type, unknown path) answers in OpenAI's error shape
  // instead of the OAuth-shaped one the rest of the emulator uses.
  app.register(
    async (scope) => {
      scope.addHook("onRequest", async (request, reply) => {
        const header = request.headers.authorization;
        const key = /^Bearer\s+(\S+)$/.exec(header ?? "")?.[1];
        if (key === undefined) {
          return openAiError(
            reply,
            401,
            "invalid_request_error",
            null,
            "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          );
        }
        if (!/^sk-[\w-]{4,}$/.test(key)) {
          return openAiError(
            reply,
            401,
            "invalid_request_error",
            "invalid_api_key",
            `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          );
        }
      });

      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
        if (status === 400) {
          return openAiError(
            reply,
            400,
            "invalid_request_error",
            null,
            "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
          );
        }
        if (status === 415) {
          return openAiError(
            reply,
            415,
            "invalid_request_error",
            null,
            "Unsupported content type. The OpenAI API expects application/json.",
          );
        }
        if (status < 500) return openAiError(reply, status, "invalid_request_error", null, error.message);
        return openAiError(
          reply,
          500,
          "server_error",
          null,
          "The server had an error processing your request.",
        );
      });

      scope.setNotFoundHandler((request, reply) => {
        const path = (request.url.split("?")[0] ?? "").replace(/^\/api\.openai\.com/, "");
        return openAiError(
          reply,
          404,
          "invalid_request_error",
          null,
          `Invalid URL (${request.method} ${path})`,
        );
      });

      scope.get("/models", async () => ({
        object: "list",
        data: EMULATED_MODELS.map((id) => ({
          id,
          object: "model",
          created: 1_700_000_000,
          owned_by: "mailwise",
        })),
      }));

      scope.post("/chat/completions", async (request, reply) => {
        const parsed = completionSchema.safeParse(request.body, { reportInput: true });
        if (!parsed.success) return reply.code(400).send(invalidBody(parsed.error));
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
              ? (body.response_format.json_schema.schema as JsonSchema | undefined)
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
    },
    { prefix: PREFIX },
  );

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
