import type { AiBudgetWindow } from "../../../../contract/ai.ts";
import { useAiUsage } from "./ai-api.ts";

const number = new Intl.NumberFormat("en-US");

function windowText(w: AiBudgetWindow): string {
  return w.limit === null
    ? `${number.format(w.used)} (no limit)`
    : `${number.format(w.used)} of ${number.format(w.limit)}`;
}

/**
 * Settings > AI usage: the AI requests the person made today and, when a model is configured,
 * the model calls counted against their budget this minute and today (issue 13.4).
 */
export function AiUsageSection() {
  const { data: usage, isLoading, isError } = useAiUsage();
  return (
    <section className="mt-6" aria-labelledby="ai-usage-title">
      <h3 id="ai-usage-title" className="text-sm font-semibold text-slate-900">
        AI usage
      </h3>
      {isLoading ? (
        <p className="mt-2 text-sm text-slate-500">Loading AI usage…</p>
      ) : isError || !usage ? (
        <p className="mt-2 text-sm text-slate-500">AI usage is not available right now.</p>
      ) : (
        <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-600">AI requests today</dt>
          <dd className="text-right font-medium text-slate-900">{number.format(usage.requestsToday)}</dd>
          {usage.budgeted ? (
            <>
              <dt className="text-slate-600">Model calls today</dt>
              <dd className="text-right font-medium text-slate-900">{windowText(usage.modelCalls.day)}</dd>
              <dt className="text-slate-600">Model calls this minute</dt>
              <dd className="text-right font-medium text-slate-900">{windowText(usage.modelCalls.minute)}</dd>
            </>
          ) : null}
        </dl>
      )}
      {usage && !usage.budgeted ? (
        <p className="mt-2 text-xs text-slate-500">
          The built-in local engine answers on this server and has no call limit.
        </p>
      ) : usage ? (
        <p className="mt-2 text-xs text-slate-500">
          Days are counted in UTC. Over the budget, requests wait until it starts again.
        </p>
      ) : null}
    </section>
  );
}
