import { useId } from "react";
import { AGENT_LEARNING_ITEMS, correspondentMemories, useMemories } from "./ai-api.ts";

/** Agent Learning: the newest things the agent learned about the person's correspondents (spec section 9: 2 items). */
export function AgentLearningCard() {
  const id = useId();
  const memories = useMemories();
  const items = correspondentMemories(memories.data?.memories ?? [], AGENT_LEARNING_ITEMS);
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-brand-100 bg-brand-50 p-4">
      <h3 id={`${id}-title`} className="font-semibold text-brand-900">
        Agent Learning
      </h3>
      {memories.isPending ? (
        <p className="mt-2 text-sm text-slate-600" role="status">
          Loading…
        </p>
      ) : memories.isError ? (
        <p className="mt-2 text-sm text-red-800" role="alert">
          What the agent learned could not be loaded.
        </p>
      ) : items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          Nothing learned yet. The agent learns as your mail is analysed.
        </p>
      ) : (
        <ul
          className="mt-2 space-y-1.5 text-sm text-slate-800"
          aria-label="Recently learned"
          data-testid="agent-learning"
        >
          {items.map((m) => (
            <li key={m.id} className="rounded-lg bg-white px-3 py-2">
              {m.content}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
