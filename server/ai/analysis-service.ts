import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { AgentPreferences, EmailAnalysis, Fallback } from "../../contract/ai.ts";
import type { Db } from "../db/client.ts";
import { storedEmailColumns } from "../db/email-columns.ts";
import { emails } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import { actionReason } from "../mail/action-rules.ts";
import { classifyBucket } from "../mail/bucket-classifier.ts";
import { analyzerContext, ignoredCategory, isVip, personalise, senderHints } from "./analysis-context.ts";
import type { AnalyzerPool } from "./analyzer-pool.ts";
import {
  analyzerInputOf,
  colleaguesOf,
  type EmailRow,
  loadEmail,
  plainText,
  userAddresses,
} from "./email-source.ts";
import { type AnalyzerContext, analyzeEmail, LOCAL_ANALYZER_VERSION } from "./local/index.ts";
import { isFreeMailDomain } from "./local/security/advance-fee.ts";
import type { MemoryService, Observation, SenderSignals } from "./memory-service.ts";
import type { Llm } from "./models/llm.ts";
import { ANALYSIS_PROMPT_VERSION, ANALYSIS_SYSTEM, analysisPrompt } from "./prompts/analysis.ts";
import { modelAnalysisSchema } from "./schema.ts";
import { learnStyle } from "./style.ts";

/** What emails.ai_analysis holds: the spec's analysis plus what buckets and drafting read. */
export type StoredAnalysis = EmailAnalysis & { bucketCategory?: string; needsReply: boolean };

interface BatchContext {
  prefs: AgentPreferences | undefined;
  own: string[];
  signals: Map<string, SenderSignals>;
  contactDomains: string[];
  colleagues: Array<{ name: string; address: string }>;
}

/** Colleagues change slowly; one look-up per user every few minutes keeps batches cheap. */
const COLLEAGUES_TTL_MS = 10 * 60_000;

export interface AnalysisDeps {
  db: Db;
  clock: Clock;
  llm: Llm;
  memories: MemoryService;
  settings(userId: string): Promise<{ preferences: AgentPreferences } | undefined>;
  /** Called with emails that need an answer, for the agent's auto-draft. */
  onNeedsReply?(userId: string, emailIds: string[]): Promise<void>;
  /** Called once analyses (and the buckets they imply) are stored for the person's mail. */
  onStored?(userId: string, emailIds: string[]): void;
  /** Runs the job's local analyses off the event loop; without it they run inline. */
  analyzer?: AnalyzerPool;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function fromOf(row: EmailRow): string {
  return row.fromName ? `${row.fromName} <${row.fromAddress}>` : row.fromAddress;
}

/** The bucket the analysis implies, via the spec's classifier (its step 2 reads bucketCategory). */
function bucketsFor(row: EmailRow, analysis: Record<string, unknown>) {
  const bucketCategory =
    analysis.category && analysis.category !== "other"
      ? (classifyBucket({
          from: fromOf(row),
          subject: row.subject,
          snippet: row.snippet,
          aiAnalysis: { category: String(analysis.category) },
        }) ?? undefined)
      : undefined;
  const bucket = classifyBucket({
    from: fromOf(row),
    subject: row.subject,
    snippet: row.snippet,
    aiAnalysis: {
      bucketCategory: bucketCategory ?? null,
      category: String(analysis.category ?? ""),
      microsoftCategory: row.providerCategory,
    },
  });
  return { bucketCategory, bucket };
}

/**
 * Analyses stored mail once (the ai.analyze job) or again on demand. The local analyzer always
 * runs (security scan, fallback, ignore check); a configured model writes the text fields.
 * Mail in the agent's ignored categories gets only the local category, no model call, no
 * memories and no draft.
 */
export function createAnalysisService(deps: AnalysisDeps) {
  const { db } = deps;

  const colleagueCache = new Map<string, { at: number; list: Array<{ name: string; address: string }> }>();

  async function colleagues(userId: string, own: readonly string[]) {
    const cached = colleagueCache.get(userId);
    if (cached && deps.clock.nowMs() - cached.at < COLLEAGUES_TTL_MS) return cached.list;
    const list = await colleaguesOf(db, userId, own);
    if (colleagueCache.size > 1000) colleagueCache.clear();
    colleagueCache.set(userId, { at: deps.clock.nowMs(), list });
    return list;
  }

  async function context(userId: string, rows: readonly EmailRow[]): Promise<BatchContext> {
    const prefs = (await deps.settings(userId))?.preferences;
    const own = await userAddresses(db, userId);
    const signals = await deps.memories.senderSignals(
      userId,
      rows.map((r) => r.fromAddress),
    );
    // A reply to one Gmail user does not make every Gmail address a contact.
    const contactDomains = [...signals.entries()]
      .filter(([, s]) => s.repliedCount > 0)
      .map(([a]) => a.split("@")[1] ?? "")
      .filter((d) => d && !isFreeMailDomain(d));
    return { prefs, own, signals, contactDomains, colleagues: await colleagues(userId, own) };
  }

  async function analyse(
    userId: string,
    row: EmailRow,
    ctx: BatchContext,
    opts: { force: boolean; mode: "interactive" | "background" },
    /** The local analyzer's result when the pool computed it already. */
    computed?: EmailAnalysis,
  ): Promise<{ stored: Record<string, unknown>; analysis?: StoredAnalysis; ignored: boolean }> {
    const signals = ctx.signals.get(row.fromAddress.toLowerCase());
    const local = computed ?? analyzeEmail(analyzerInputOf(row), localContext(row, ctx));
    const ignored = ignoredCategory(local.category, ctx.prefs);
    if (ignored && !opts.force) {
      const stored = {
        category: local.category,
        importance: local.importance,
        engine: "local",
        version: local.version,
        security: local.security,
        skipped: "ignored_category",
        ignoredAs: ignored,
        needsReply: false,
      };
      return { stored: { ...stored, ...pick(bucketsFor(row, stored)) }, ignored: true };
    }
    const vip = isVip(row.fromAddress, ctx.prefs);
    const risky = local.security.verdict !== "safe";
    const localNeedsReply =
      local.responseTime !== "No response needed" &&
      !risky &&
      actionReason({ ...row, aiAnalysis: null }) !== null;
    let analysis: StoredAnalysis = { ...local, needsReply: localNeedsReply };
    let fallback: Fallback | undefined;
    if (deps.llm.enabled) {
      const result = await deps.llm.structured({
        userId,
        task: "analysis",
        schema: modelAnalysisSchema,
        system: ANALYSIS_SYSTEM,
        prompt: analysisPrompt({
          fromName: row.fromName,
          fromAddress: row.fromAddress,
          subject: row.subject,
          body: plainText(row),
          receivedAt: row.receivedAt,
          hints: senderHints(vip, signals),
        }),
        mode: opts.mode,
      });
      if (result.ok) {
        const m = result.value;
        analysis = {
          ...m,
          summary: m.summary.slice(0, 400),
          keyPoints: m.keyPoints.map((k) => k.slice(0, 200)),
          // On risky mail the model's advice may push compliance ("reply", "pay"): ours says how to check.
          suggestedActions: risky ? local.suggestedActions : m.suggestedActions.map((k) => k.slice(0, 200)),
          newMemories: risky ? [] : m.newMemories.map((k) => k.slice(0, 200)),
          // The scan is ours: a model must not be able to call a phish safe.
          security: local.security,
          importance: risky
            ? Math.min(local.importance, m.importance)
            : personalise(m.importance, vip, signals, ctx.prefs),
          urgency: risky ? local.urgency : m.urgency,
          responseTime: risky ? local.responseTime : m.responseTime,
          needsReply: m.needsReply && !risky,
          engine: result.engine,
          version: `${ANALYSIS_PROMPT_VERSION}+${LOCAL_ANALYZER_VERSION}`,
        };
      } else {
        fallback = result.fallback;
      }
    }
    if (fallback) analysis = { ...analysis, fallback };
    const buckets = bucketsFor(row, analysis);
    if (buckets.bucketCategory) analysis.bucketCategory = buckets.bucketCategory;
    return { stored: { ...analysis }, analysis, ignored: false };
  }

  function localContext(row: EmailRow, ctx: BatchContext): AnalyzerContext {
    const signals = ctx.signals.get(row.fromAddress.toLowerCase());
    return {
      ...analyzerContext(ctx.prefs, ctx.own, signals, ctx.contactDomains),
      colleagues: ctx.colleagues,
    };
  }

  /** The local analyses of a job's batch: in the pool's thread, else inline (undefined each). */
  async function localBatch(
    rows: readonly EmailRow[],
    ctx: BatchContext,
  ): Promise<Array<EmailAnalysis | undefined>> {
    if (!deps.analyzer) return rows.map(() => undefined);
    return deps.analyzer.analyse(
      rows.map((row) => ({ input: analyzerInputOf(row), context: localContext(row, ctx) })),
    );
  }

  function pick(b: { bucketCategory: string | undefined }) {
    return b.bucketCategory ? { bucketCategory: b.bucketCategory } : {};
  }

  async function learnFrom(userId: string, rows: Array<{ row: EmailRow; analysis: StoredAnalysis }>) {
    const observations: Observation[] = [];
    for (const { row, analysis } of rows) {
      for (const fact of analysis.newMemories)
        observations.push({
          kind: "fact",
          key: fact,
          content: fact,
          source: "analysis",
          mailAt: row.receivedAt,
        });
    }
    await deps.memories.learn(userId, observations);
  }

  /** Writes analyses and recomputed buckets in one statement; `onlyIfNull` keeps a job from overwriting. */
  async function store(
    userId: string,
    items: Array<{ row: EmailRow; stored: Record<string, unknown> }>,
    onlyIfNull: boolean,
  ) {
    if (items.length === 0) return;
    const values = items.map(({ row, stored }) => {
      const { bucket } = bucketsFor(row, stored);
      return sql`(${row.id}::uuid, ${JSON.stringify({ ...stored, analysedAt: deps.clock.now().toISOString() })}::jsonb, ${bucket})`;
    });
    await db.execute(sql`
      update ${emails} set ai_analysis = v.a, bucket = v.b, updated_at = now()
      from (values ${sql.join(values, sql`, `)}) as v(id, a, b)
      where ${emails.id} = v.id and ${emails.userId} = ${userId}
      ${onlyIfNull ? sql`and ${emails.aiAnalysis} is null` : sql``}`);
  }

  return {
    /**
     * Analyses up to `limit` of the user's unanalysed emails, newest first. Returns how many
     * were done; fewer than `limit` means none are left.
     */
    async analysePending(userId: string, limit = 200): Promise<number> {
      const rows = await db
        .select(storedEmailColumns)
        .from(emails)
        .where(and(eq(emails.userId, userId), isNull(emails.aiAnalysis)))
        .orderBy(desc(emails.receivedAt))
        .limit(limit);
      if (rows.length === 0) return 0;
      const ctx = await context(userId, rows);
      const items: Array<{ row: EmailRow; stored: Record<string, unknown> }> = [];
      const learned: Array<{ row: EmailRow; analysis: StoredAnalysis }> = [];
      const sent: EmailRow[] = [];
      const received = rows.filter((row) => !row.isSent && !row.isDraft);
      const locals = await localBatch(received, ctx);
      const localOf = new Map(received.map((row, i) => [row.id, locals[i]]));
      let slice = Date.now();
      for (const row of rows) {
        if (row.isSent || row.isDraft) {
          // The user's own mail is not analysed: it teaches the agent who matters and how they write.
          sent.push(row);
          items.push({
            row,
            stored: { engine: "local", version: LOCAL_ANALYZER_VERSION, skipped: "own_mail" },
          });
          continue;
        }
        const result = await analyse(
          userId,
          row,
          ctx,
          { force: false, mode: "background" },
          localOf.get(row.id),
        );
        items.push({ row, stored: result.stored });
        if (result.analysis) learned.push({ row, analysis: result.analysis });
        // Without the pool the analyzer is synchronous CPU work here: let HTTP requests in between emails.
        if (Date.now() - slice > 20) {
          await yieldToLoop();
          slice = Date.now();
        }
      }
      const sentOnly = items.filter((i) => i.row.isSent || i.row.isDraft);
      await store(userId, sentOnly, true);
      // Sent rows keep the bucket sync gave them: store() would recompute it.
      await store(
        userId,
        items.filter((i) => !i.row.isSent && !i.row.isDraft),
        true,
      );
      deps.onStored?.(
        userId,
        items.map((i) => i.row.id),
      );
      await learnFrom(userId, learned);
      if (sent.length > 0) await deps.memories.learn(userId, learnStyle(sent));
      const recent = deps.clock.nowMs() - 3 * 86_400_000;
      const needing = learned
        .filter(
          ({ row, analysis }) =>
            analysis.needsReply && row.inInbox && !row.isRead && row.receivedAt.getTime() >= recent,
        )
        .filter(({ row }) => !ctx.own.includes(row.fromAddress.toLowerCase()))
        .map(({ row }) => row.id);
      if (needing.length > 0) await deps.onNeedsReply?.(userId, needing);
      return rows.length;
    },

    /** POST /api/agent/analyze/:id: always recomputes (ignored categories included) and stores. */
    async analyseNow(userId: string, emailId: string): Promise<StoredAnalysis> {
      const row = await loadEmail(db, userId, emailId);
      const ctx = await context(userId, [row]);
      const result = await analyse(userId, row, ctx, { force: true, mode: "interactive" });
      if (!result.analysis) throw new Error("forced analysis returned no analysis");
      await store(userId, [{ row, stored: result.stored }], false);
      deps.onStored?.(userId, [row.id]);
      await learnFrom(userId, [{ row, analysis: result.analysis }]);
      return result.analysis;
    },
  };
}

export type AnalysisService = ReturnType<typeof createAnalysisService>;
