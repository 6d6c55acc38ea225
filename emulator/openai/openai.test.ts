import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildEmulator } from "../server.ts";

const COMPLETIONS = "/api.openai.com/v1/chat/completions";
const KEY = "sk-test-mailwise";

/** OpenAI's error body: every failure answers in this shape. */
const openAiErrorSchema = z.strictObject({
  error: z.strictObject({
    message: z.string().min(1),
    type: z.string().min(1),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});

const completionSchema = z.object({
  id: z.string().startsWith("chatcmpl-"),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z
    .array(
      z.object({
        index: z.literal(0),
        message: z.object({ role: z.literal("assistant"), content: z.string() }),
        finish_reason: z.literal("stop"),
      }),
    )
    .length(1),
  usage: z.object({
    prompt_tokens: z.number().int().positive(),
    completion_tokens: z.number().int().positive(),
    total_tokens: z.number().int().positive(),
  }),
});

/** A JSON Schema as a caller (the AI SDK turning our zod shapes into JSON) sends it. */
const ANALYSIS_SCHEMA = {
  type: "object",
  properties: {
    summary: { type: "string" },
    urgency: { type: "string", enum: ["low", "medium", "high"] },
    sentiment: { type: "string", enum: ["positive", "neutral", "negative"] },
    importance: { type: "integer", minimum: 1, maximum: 10 },
    confidence: { type: "number", minimum: 0, maximum: 1 },
    needsReply: { type: "boolean" },
    keyPoints: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
    followUp: { anyOf: [{ type: "string" }, { type: "null" }] },
    sender: {
      type: "object",
      properties: { name: { type: "string" }, vip: { type: "boolean" } },
      required: ["name", "vip"],
      additionalProperties: false,
    },
  },
  required: [
    "summary",
    "urgency",
    "sentiment",
    "importance",
    "confidence",
    "needsReply",
    "keyPoints",
    "followUp",
    "sender",
  ],
  additionalProperties: false,
} as const;

const MAIL =
  "From: Priya Shah <priya@client.example>\nSubject: Contract renewal\n\nHi, the contract renewal is urgent. Could you send the signed copy by Friday? Thanks!";

function request(body: unknown = {}) {
  return {
    model: "mw-emulated-small",
    messages: [
      { role: "system", content: "You analyse one email and answer in JSON." },
      { role: "user", content: MAIL },
    ],
    ...(body as object),
  };
}

describe("OpenAI-compatible chat completions", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = buildEmulator({ clients: [], admin: true, mail: { seedCorpus: false } });
    await app.ready();
  });
  afterAll(() => app.close());
  beforeEach(async () => {
    await app.inject({ method: "DELETE", url: "/_admin/openai/faults" });
  });

  const complete = (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }) =>
    app.inject({ method: "POST", url: COMPLETIONS, headers, payload: body as Record<string, unknown> });

  const faults = async (body: Record<string, number>) => {
    const r = await app.inject({ method: "POST", url: "/_admin/openai/faults", payload: body });
    expect(r.statusCode).toBe(200);
  };
  const counters = async () =>
    (await app.inject({ url: "/_admin/openai/faults" })).json() as { requests: number; maxInFlight: number };

  function expectOpenAiError(response: { statusCode: number; json(): unknown }, status: number) {
    expect(response.statusCode).toBe(status);
    return openAiErrorSchema.parse(response.json()).error;
  }

  describe("authentication", () => {
    it("no key: 401 saying none was given, before the body is even read", async () => {
      const missing = expectOpenAiError(await complete(request(), {}), 401);
      expect(missing).toMatchObject({ type: "invalid_request_error", code: null, param: null });
      expect(missing.message).toMatch(/didn't provide an API key/);
      // A body that is not even JSON still gets the authentication answer first.
      const unparsed = await app.inject({
        method: "POST",
        url: COMPLETIONS,
        headers: { "content-type": "application/json" },
        payload: "{not json",
      });
      expect(expectOpenAiError(unparsed, 401).message).toMatch(/didn't provide an API key/);
    });

    it("a wrong key or scheme: 401 invalid_api_key, the key masked", async () => {
      for (const authorization of ["Bearer not-a-key-at-all", "Bearer sk-", `Basic ${KEY}`]) {
        const error = expectOpenAiError(await complete(request(), { authorization }), 401);
        if (authorization.startsWith("Basic")) {
          expect(error.code).toBeNull();
          continue;
        }
        expect(error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key" });
        expect(error.message).toMatch(/^Incorrect API key provided/);
      }
      const wrong = expectOpenAiError(
        await complete(request(), { authorization: "Bearer wrong-secret-key-1234" }),
        401,
      );
      expect(wrong.message).not.toContain("wrong-secret-key-1234");
      expect(wrong.message).toContain("1234");
    });

    it("the model list needs a key too", async () => {
      expectOpenAiError(await app.inject({ url: "/api.openai.com/v1/models" }), 401);
      const listed = await app.inject({
        url: "/api.openai.com/v1/models",
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toMatchObject({
        object: "list",
        data: expect.arrayContaining([expect.objectContaining({ id: "mw-emulated-small" })]),
      });
    });

    it("refused calls are not counted as completions", async () => {
      await complete(request(), {});
      expect((await counters()).requests).toBe(0);
    });
  });

  describe("answers", () => {
    it("a json_schema response_format answer parses and validates against that schema", async () => {
      const response = await complete(
        request({
          response_format: {
            type: "json_schema",
            json_schema: { name: "analysis", strict: true, schema: ANALYSIS_SCHEMA },
          },
        }),
      );
      expect(response.statusCode).toBe(200);
      const completion = completionSchema.parse(response.json());
      expect(completion.model).toBe("mw-emulated-small");
      const content = JSON.parse(completion.choices[0]?.message.content ?? "");
      const validator = z.fromJSONSchema(
        ANALYSIS_SCHEMA as unknown as Parameters<typeof z.fromJSONSchema>[0],
      );
      expect(validator.safeParse(content).error).toBeUndefined();
      // The heuristics read the mail: it is urgent, asks a question, and is thankful.
      expect(content).toMatchObject({ urgency: "high", needsReply: true, sentiment: "positive" });
      expect(completion.usage.total_tokens).toBe(
        completion.usage.prompt_tokens + completion.usage.completion_tokens,
      );
      expect((await counters()).requests).toBe(1);
    });

    it("without a schema the answer is plain text", async () => {
      const response = await complete(request());
      const content = completionSchema.parse(response.json()).choices[0]?.message.content ?? "";
      expect(content.length).toBeGreaterThan(0);
      expect(() => JSON.parse(content)).toThrow();
    });
  });

  describe("faults switched through /_admin/openai/faults", () => {
    const withSchema = request({
      response_format: { type: "json_schema", json_schema: { name: "analysis", schema: ANALYSIS_SCHEMA } },
    });

    it("rateLimited: the next N answer 429 rate_limit_exceeded with Retry-After, then it recovers", async () => {
      await faults({ rateLimited: 2, retryAfterSeconds: 7 });
      for (let i = 0; i < 2; i++) {
        const limited = await complete(withSchema);
        expect(expectOpenAiError(limited, 429)).toMatchObject({
          code: "rate_limit_exceeded",
          type: "requests",
        });
        expect(limited.headers["retry-after"]).toBe("7");
      }
      expect((await complete(withSchema)).statusCode).toBe(200);
      expect((await counters()).requests).toBe(3);
    });

    it("serverErrors: the next N answer 500 server_error, then it recovers", async () => {
      await faults({ serverErrors: 1 });
      expect(expectOpenAiError(await complete(withSchema), 500)).toMatchObject({
        type: "server_error",
        code: null,
      });
      expect((await complete(withSchema)).statusCode).toBe(200);
    });

    it("malformed: the next N answer 200 with content that is not the requested JSON", async () => {
      await faults({ malformed: 1 });
      const bad = completionSchema.parse((await complete(withSchema)).json());
      expect(() => JSON.parse(bad.choices[0]?.message.content ?? "")).toThrow(SyntaxError);
      const good = completionSchema.parse((await complete(withSchema)).json());
      expect(() => JSON.parse(good.choices[0]?.message.content ?? "")).not.toThrow();
    });

    it("latencyMs: every answer waits that long, and parallel calls are in flight together", async () => {
      await faults({ latencyMs: 250 });
      const started = performance.now();
      const answers = await Promise.all([complete(withSchema), complete(withSchema)]);
      const elapsed = performance.now() - started;
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      expect(elapsed).toBeGreaterThanOrEqual(240);
      expect(elapsed).toBeLessThan(2_000);
      expect((await counters()).maxInFlight).toBe(2);
    });

    it("refuses bad fault settings, and DELETE clears faults and counters", async () => {
      const bad = await app.inject({
        method: "POST",
        url: "/_admin/openai/faults",
        payload: { latencyMs: -1 },
      });
      expect(bad.statusCode).toBe(400);
      await faults({ serverErrors: 5 });
      await complete(withSchema);
      await app.inject({ method: "DELETE", url: "/_admin/openai/faults" });
      expect(await counters()).toMatchObject({ requests: 0, faults: { serverErrors: 0 } });
      expect((await complete(withSchema)).statusCode).toBe(200);
    });
  });

  describe("bad requests answer 400 in OpenAI's error shape", () => {
    const auth = { authorization: `Bearer ${KEY}` };

    it("a body that is not JSON, or none at all", async () => {
      const garbled = await app.inject({
        method: "POST",
        url: COMPLETIONS,
        headers: { ...auth, "content-type": "application/json" },
        payload: '{"model": "gpt-4o-mini", "messages": [',
      });
      expect(expectOpenAiError(garbled, 400)).toMatchObject({ type: "invalid_request_error" });
      expect(expectOpenAiError(garbled, 400).message).toMatch(/could not parse the JSON body/);

      const empty = await app.inject({
        method: "POST",
        url: COMPLETIONS,
        headers: { ...auth, "content-type": "application/json" },
        payload: "",
      });
      expectOpenAiError(empty, 400);

      const none = await app.inject({ method: "POST", url: COMPLETIONS, headers: auth });
      expectOpenAiError(none, 400);

      const array = await complete([request()]);
      expectOpenAiError(array, 400);
    });

    it("a body that is not JSON by content type", async () => {
      const text = await app.inject({
        method: "POST",
        url: COMPLETIONS,
        headers: { ...auth, "content-type": "text/plain" },
        payload: "hello",
      });
      expect(text.statusCode).toBeGreaterThanOrEqual(400);
      expect(text.statusCode).toBeLessThan(500);
      openAiErrorSchema.parse(text.json());
    });

    it("missing or wrong parameters name the parameter", async () => {
      const cases: Array<[unknown, string, string]> = [
        [{ messages: request().messages }, "model", "missing_required_parameter"],
        [{ model: "gpt-4o-mini" }, "messages", "missing_required_parameter"],
        [{ model: "gpt-4o-mini", messages: [] }, "messages", "empty_array"],
        [{ model: "gpt-4o-mini", messages: "hello" }, "messages", "invalid_type"],
        [{ model: 42, messages: request().messages }, "model", "invalid_type"],
        [request({ messages: [{ role: "robot", content: "hi" }] }), "messages[0].role", "invalid_value"],
        [
          request({ response_format: { type: "json_schema" } }),
          "response_format.json_schema",
          "missing_required_parameter",
        ],
      ];
      for (const [body, param, code] of cases) {
        const error = expectOpenAiError(await complete(body), 400);
        expect(error, JSON.stringify(body)).toMatchObject({ type: "invalid_request_error", param, code });
      }
      const unknownFormat = expectOpenAiError(
        await complete(request({ response_format: { type: "xml" } })),
        400,
      );
      expect(unknownFormat.param).toMatch(/^response_format/);
      expect((await counters()).requests).toBe(0);
    });

    it("an unknown path under the API answers 404 in the same shape", async () => {
      const response = await app.inject({
        method: "POST",
        url: "/api.openai.com/v1/completions/nothing",
        headers: auth,
      });
      expect(expectOpenAiError(response, 404).message).toBe("Invalid URL (POST /v1/completions/nothing)");
    });
  });
});
