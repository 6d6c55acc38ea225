import type { EmailAnalysis } from "../../contract/ai.ts";
import type { AnalyzerContext, AnalyzerInput } from "./local/index.ts";
import { analyzeEmail } from "./local/index.ts";

/** One batch for the analyzer's worker thread: a message per batch, not per email. */
export interface AnalyzerTask {
  items: Array<{ input: AnalyzerInput; context: AnalyzerContext }>;
}

/** Piscina's entry in the worker thread (analyzer-pool.ts): the local analyzer over a batch. */
export default function analyseBatch(task: AnalyzerTask): EmailAnalysis[] {
  return task.items.map(({ input, context }) => analyzeEmail(input, context));
}
