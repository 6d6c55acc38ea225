import { Dialog } from "radix-ui";
import type { EmailAnalysis } from "../../../../contract/ai.ts";
import type { Email } from "../../../../contract/mail.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { BTN_PRIMARY } from "../reader/dialog-classes.ts";
import { AgentLearningCard } from "./agent-learning-card.tsx";
import {
  engineLabel,
  MAX_KEY_POINTS,
  MAX_SUGGESTED_ACTIONS,
  readAnalysis,
  readSecurity,
  useAnalyseNow,
} from "./ai-api.ts";
import { BADGE } from "./form-classes.ts";
import { ResponseGenerator } from "./response-generator.tsx";
import { SecurityVerdict } from "./security-verdict.tsx";

const URGENCY_STYLE: Record<string, string> = {
  high: "bg-red-50 text-red-800 ring-red-200",
  medium: "bg-amber-50 text-amber-900 ring-amber-200",
};
const SENTIMENT_STYLE: Record<string, string> = {
  positive: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  negative: "bg-red-50 text-red-800 ring-red-200",
};
const NEUTRAL = "bg-slate-50 text-slate-700 ring-slate-200";

export interface InsightsPanelProps {
  email: Email;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The AI Insights side panel (spec section 2): fixed on the right, for one email. */
export function InsightsPanel({ email, open, onOpenChange }: InsightsPanelProps) {
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/20" />
        <Dialog.Content
          className="fixed inset-y-0 right-0 z-50 flex h-dvh w-full flex-col bg-white shadow-2xl focus:outline-none sm:w-[28rem] sm:border-l sm:border-slate-200"
          data-testid="ai-insights"
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-4 py-3">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold text-slate-900">AI Insights</Dialog.Title>
              <Dialog.Description className="text-sm text-slate-600">
                What Mailwise found in this email
              </Dialog.Description>
            </div>
            <Dialog.Close
              aria-label="Close AI Insights"
              className="shrink-0 rounded-lg px-2 py-1 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              ×
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-4 py-4">
            <InsightsBody email={email} />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

function InsightsBody({ email }: { email: Email }) {
  const analysis = readAnalysis(email.aiAnalysis);
  const security = readSecurity(email.aiAnalysis);
  const analyse = useAnalyseNow(email);
  return (
    <>
      <section aria-label="Overview" className="rounded-xl border border-slate-200 p-4">
        <h3 className="font-semibold break-words text-slate-900">{email.subject || "(no subject)"}</h3>
        <p className="mt-0.5 text-sm break-words text-slate-600">{email.from}</p>
        {analysis ? (
          <Overview analysis={analysis} />
        ) : (
          <div className="mt-3">
            <p className="text-sm font-medium text-slate-800">AI analysis not available</p>
            <button
              type="button"
              className={`${BTN_PRIMARY} mt-2`}
              disabled={analyse.isPending}
              aria-busy={analyse.isPending || undefined}
              onClick={() => analyse.mutate()}
            >
              {analyse.isPending ? "Analyzing…" : "Analyze now"}
            </button>
          </div>
        )}
      </section>
      {security ? <SecurityVerdict scan={security} /> : null}
      {analysis ? <Details analysis={analysis} /> : null}
      <ResponseGenerator emailId={email.id} />
      <AgentLearningCard />
    </>
  );
}

function Overview({ analysis }: { analysis: EmailAnalysis }) {
  return (
    <>
      <div className="mt-3 flex flex-wrap gap-1.5">
        <span className={`${BADGE} ${URGENCY_STYLE[analysis.urgency] ?? NEUTRAL}`} data-testid="urgency">
          Urgency: {analysis.urgency}
        </span>
        <span
          className={`${BADGE} ${SENTIMENT_STYLE[analysis.sentiment] ?? NEUTRAL}`}
          data-testid="sentiment"
        >
          Sentiment: {analysis.sentiment}
        </span>
      </div>
      <p className="mt-3 text-sm text-slate-800" data-testid="summary">
        {analysis.summary}
      </p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Category</dt>
        <dd className="text-slate-900" data-testid="category">
          {analysis.category}
        </dd>
        <dt className="text-slate-500">Importance</dt>
        <dd className="text-slate-900" data-testid="importance">
          {analysis.importance}/10
        </dd>
        <dt className="text-slate-500">Analysed by</dt>
        <dd className="text-slate-900" data-testid="analysis-engine">
          {engineLabel(analysis.engine, analysis.fallback)}
        </dd>
      </dl>
    </>
  );
}

function Details({ analysis }: { analysis: EmailAnalysis }) {
  const keyPoints = analysis.keyPoints.slice(0, MAX_KEY_POINTS);
  const actions = analysis.suggestedActions.slice(0, MAX_SUGGESTED_ACTIONS);
  return (
    <section aria-label="Details" className="space-y-3 rounded-xl border border-slate-200 p-4 text-sm">
      <div>
        <h3 className="font-semibold text-slate-900">Key points</h3>
        {keyPoints.length > 0 ? (
          <ul className="mt-1 list-disc space-y-1 pl-5 text-slate-800" aria-label="Key points">
            {keyPoints.map((k) => (
              <li key={k}>{k}</li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-slate-600">None found.</p>
        )}
      </div>
      <div>
        <h3 className="font-semibold text-slate-900">Suggested actions</h3>
        {actions.length > 0 ? (
          <ul className="mt-1 list-disc space-y-1 pl-5 text-slate-800" aria-label="Suggested actions">
            {actions.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-slate-600">Nothing to do.</p>
        )}
      </div>
      <p>
        <span className="font-semibold text-slate-900">Suggested response time: </span>
        <span className="text-slate-800" data-testid="response-time">
          {analysis.responseTime}
        </span>
      </p>
    </section>
  );
}
