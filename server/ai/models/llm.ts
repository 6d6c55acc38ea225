import { APICallError, generateText, Output, RetryError } from "ai";
import type { z } from "zod";
import type { Fallback } from "../../../contract/ai.ts";
import type { AiConfig } from "../../config.ts";
import { DomainError } from "../../http/errors.ts";
import { leaksPrompt } from "../prompts/untrusted.ts";
import type { UsageRecorder } from "../usage.ts";
import type { AiBudget } from "./budget.ts";
import type { UserLimiter } from "./limiter.ts";
import { type AiTask, type ConfiguredModel, createModels } from "./provider.ts";

export type LlmResult<T> = { ok: true; value: T; engine: string } | { ok: false; fallback: Fallback };

export interface StructuredCall<S extends z.ZodType> {
  userId: string;
  task: AiTask;
  schema: S;
  system: string;
  prompt: string;
  mode: "interactive" | "background";
}

/** Collects every string in a value, to check the whole answer for a leaked prompt. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

function reasonOf(err: unknown): Fallback["reason"] {
  const inner = err instanceof RetryError ? err.lastError : err;
  if (inner instanceof Error && (inner.name === "AbortError" || inner.name === "TimeoutError"))
    return "timeout";
  if (APICallError.isInstance(inner) && inner.statusCode === 429) return "rate_limited";
  if (inner instanceof Error && /NoObjectGenerated|JSONParse|TypeValidation|NoOutput/i.test(inner.name)) {
    return "malformed_output";
  }
  return "provider_error";
}

function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

/**
 * One model call with structured output: per-user concurrency, the per-user budget of calls, a
 * timeout, SDK retries (which honour retry-after on 429; they belong to the one counted call), zod
 * validation and a prompt-leak check. Never throws for model trouble: the caller gets a fallback
 * reason and answers with the local engine. A spent budget refuses interactive calls (429 with
 * Retry-After) and sends background work to the local engine.
 */
export function createLlm(
  config: AiConfig,
  deps: { limiter: UserLimiter; usage: UsageRecorder; budget: AiBudget },
) {
  const models = createModels(config);
  const budgetLimit = (window: "minute" | "day") =>
    (window === "minute" ? config.budget.perMinute : config.budget.perDay)?.toLocaleString("en-US");

  async function structured<S extends z.ZodType>(call: StructuredCall<S>): Promise<LlmResult<z.infer<S>>> {
    const configured: ConfiguredModel | undefined = models?.[call.task];
    if (!configured) return { ok: false, fallback: { from: "local", reason: "provider_error" } };
    const { engine } = configured;
    return deps.limiter.run(call.userId, call.mode, async () => {
      const taken = await deps.budget.take(call.userId, call.mode);
      if (!taken.ok) {
        if (call.mode === "background") {
          return { ok: false, fallback: { from: engine, reason: "budget_exceeded" } };
        }
        throw new DomainError(
          "ai_budget_exceeded",
          `You have used your AI budget for this ${taken.window} (${budgetLimit(taken.window)} model calls). Please try again in ${waitText(taken.retryAfterSeconds)}.`,
          undefined,
          taken.retryAfterSeconds,
        );
      }
      try {
        const result = await generateText({
          model: configured.model,
          system: call.system,
          prompt: call.prompt,
          output: Output.object({ schema: call.schema }),
          temperature: 0.2,
          maxRetries: 2,
          abortSignal: AbortSignal.timeout(config.timeoutMs),
        });
        await deps.usage.record({
          userId: call.userId,
          task: call.task,
          engine,
          inputTokens: result.totalUsage.inputTokens ?? 0,
          outputTokens: result.totalUsage.outputTokens ?? 0,
          outcome: "ok",
        });
        const value = call.schema.parse(result.output) as z.infer<S>;
        if (strings(value).some((s) => leaksPrompt(s, call.system))) {
          return { ok: false, fallback: { from: engine, reason: "unsafe_output" } };
        }
        return { ok: true, value, engine };
      } catch (err) {
        await deps.usage.record({
          userId: call.userId,
          task: call.task,
          engine,
          inputTokens: 0,
          outputTokens: 0,
          outcome: "failed",
        });
        return { ok: false, fallback: { from: engine, reason: reasonOf(err) } };
      }
    });
  }

  return {
    /** True when a model is configured (AI_PROVIDER is not local). */
    enabled: models !== null,
    structured,
  };
}

export type Llm = ReturnType<typeof createLlm>;
