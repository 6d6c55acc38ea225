import { agentPreferencesSchema, type EmailAnalysis, emailAnalysisSchema } from "../../contract/ai.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { EventBus } from "../events.ts";
import type { JobQueue } from "../jobs/queue.ts";
import type { Clock } from "../lib/clock.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import { createAgentService } from "./agent-service.ts";
import { defineAiJobs } from "./analysis-job.ts";
import { createAnalysisService } from "./analysis-service.ts";
import { createAnalyzerPool } from "./analyzer-pool.ts";
import { createAutoDrafter } from "./drafting/auto-draft.ts";
import { createDraftingService } from "./drafting/drafting-service.ts";
import { createMemoryService } from "./memory-service.ts";
import { createAiBudget } from "./models/budget.ts";
import { createUserLimiter } from "./models/limiter.ts";
import { createLlm } from "./models/llm.ts";
import { createUsageRecorder } from "./usage.ts";

export interface AiDeps {
  config: Config;
  db: Db;
  clock: Clock;
  queue: JobQueue;
  events: EventBus;
  providerClient: ProviderClientFactory;
  /** Tests shorten the analysis job's time slice. */
  analysisBudgetMs?: number;
  analyseAfterSync?: boolean;
  /** Analyzer threads; 0 runs the analyzer on the event loop (benches comparing both). */
  analyzerThreads?: number;
}

/**
 * The AI feature of one process: agent, memory, analysis, drafting and their jobs. Built by the
 * composition root before the queue starts (jobs must be defined first).
 */
export function createAiServices(deps: AiDeps) {
  const { db, clock } = deps;
  const usage = createUsageRecorder(db, deps.events);
  const limiter = createUserLimiter(deps.config.ai.maxConcurrencyPerUser);
  const budget = createAiBudget(db, clock, deps.config.ai.budget);
  const llm = createLlm(deps.config.ai, { limiter, usage, budget });
  const agents = createAgentService({ db, clock });
  const memories = createMemoryService({ db, clock });
  const defaults = agentPreferencesSchema.parse({});
  const drafting = createDraftingService({ db, llm, agents, memories, usage, defaults });
  const autoDrafter = createAutoDrafter({
    db,
    clock,
    agents,
    drafting,
    usage,
    providerClient: deps.providerClient,
  });
  let jobs: ReturnType<typeof defineAiJobs> | undefined;
  // Threads start with the first batch and end when idle: a web-only process never starts one.
  // Tests keep the thread at normal priority: on a CI machine crowded with other programs, a
  // niced thread's analysis (and its tests' waits) would take minutes.
  const analyzer =
    deps.analyzerThreads === 0
      ? undefined
      : createAnalyzerPool({
          maxThreads: deps.analyzerThreads ?? 1,
          ...(deps.config.env === "test" ? { nice: 0 } : {}),
        });
  const analysis = createAnalysisService({
    db,
    clock,
    llm,
    memories,
    settings: (userId) => agents.settings(userId),
    onNeedsReply: async (userId, ids) => {
      if (await agents.settings(userId)) await jobs?.requestAutoDraft(userId, ids);
    },
    onStored: (userId, emailIds) => deps.events.emit("emails.analysed", { userId, emailIds }),
    ...(analyzer ? { analyzer } : {}),
  });
  jobs = defineAiJobs(deps.queue, {
    db,
    events: deps.events,
    analysis,
    autoDrafter,
    memories,
    ...(deps.analysisBudgetMs === undefined ? {} : { budgetMs: deps.analysisBudgetMs }),
    analyseAfterSync: deps.analyseAfterSync ?? true,
  });
  return {
    agents,
    memories,
    analysis,
    drafting,
    autoDrafter,
    usage,
    limiter,
    budget,
    llm,
    provider: deps.config.ai.provider,
    jobs,
    analyzer,
    /** Ends the analyzer's threads (after the job queue stopped). */
    close: async () => {
      await analyzer?.close();
    },
    /** The spec's AI analysis as the API returns it (contract-checked, extra stored fields dropped). */
    presentAnalysis(a: EmailAnalysis & { needsReply?: boolean }) {
      return { ...emailAnalysisSchema.parse(a), needsReply: a.needsReply ?? false };
    },
  };
}

export type AiServices = ReturnType<typeof createAiServices>;
