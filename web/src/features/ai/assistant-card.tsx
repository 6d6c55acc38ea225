import { useAgent, useAgentInsights } from "./ai-api.ts";

/** The Email Buckets panel's AI assistant card: whether the agent is set up, what it knows. */
export function AssistantCard({ onConfigure }: { onConfigure: () => void }) {
  const agent = useAgent();
  const insights = useAgentInsights();
  const configured = agent.data ?? null;
  return (
    <section
      aria-labelledby="ai-assistant-title"
      className="rounded-xl border border-brand-100 bg-brand-50 p-4"
      data-testid="assistant-card"
    >
      <h3 id="ai-assistant-title" className="font-semibold text-brand-900">
        AI assistant
      </h3>
      <p className="mt-1 text-sm text-slate-700" data-testid="assistant-status">
        {agent.isPending
          ? "Checking your assistant…"
          : configured
            ? `${configured.name} is configured · ${configured.preferences.tone_preference} tone`
            : "Not configured yet. Set up an assistant that drafts replies in your voice."}
      </p>
      {insights.data ? (
        <p className="mt-1 text-sm text-slate-700" data-testid="assistant-insights">
          {insights.data.totalMemories} {insights.data.totalMemories === 1 ? "memory" : "memories"} ·{" "}
          {insights.data.totalConversations}{" "}
          {insights.data.totalConversations === 1 ? "conversation" : "conversations"}
        </p>
      ) : null}
      <button
        type="button"
        onClick={onConfigure}
        className="mt-3 rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        Configure assistant
      </button>
    </section>
  );
}
