import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { AiConfig } from "../../config.ts";

export type AiTask = "analysis" | "drafting";

export interface ConfiguredModel {
  model: LanguageModel;
  /** "<provider>:<model>", the engine every answer names. */
  engine: string;
}

/**
 * The model per task through the Vercel AI SDK, or null for the local engine. openai-compatible
 * covers Ollama, vLLM, LM Studio, OpenRouter and our emulator.
 */
export function createModels(config: AiConfig): Record<AiTask, ConfiguredModel> | null {
  if (config.provider === "local") return null;
  const build = (id: string): LanguageModel => {
    switch (config.provider) {
      case "openai":
        return createOpenAI({
          apiKey: config.apiKey,
          ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
        }).chat(id);
      case "anthropic":
        return createAnthropic({
          apiKey: config.apiKey,
          ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
        })(id);
      default:
        return createOpenAICompatible({
          name: "openai-compatible",
          baseURL: config.baseUrl ?? "",
          ...(config.apiKey ? { apiKey: config.apiKey } : {}),
          supportsStructuredOutputs: true,
          includeUsage: true,
        }).chatModel(id);
    }
  };
  const entry = (id: string): ConfiguredModel => ({ model: build(id), engine: `${config.provider}:${id}` });
  return { analysis: entry(config.models.analysis), drafting: entry(config.models.drafting) };
}
