import { Dialog } from "radix-ui";
import { useId } from "react";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { OVERLAY, SHEET_CONTENT } from "../reader/dialog-classes.ts";
import { AgentSetupForm } from "./agent-setup-form.tsx";
import { newestMemories, useAgent, useAgentInsights, useDeleteMemory, useMemories } from "./ai-api.ts";

export interface AgentConfigDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userEmail: string;
}

/** The AI Assistant Configuration modal: the setup form, what the agent knows, its memories. */
export function AgentConfigDialog({ open, onOpenChange, userEmail }: AgentConfigDialogProps) {
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={OVERLAY} />
        <Dialog.Content className={`${SHEET_CONTENT} sm:max-w-2xl`}>
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-4 pt-4 pb-3 sm:px-6">
            <div>
              <Dialog.Title className="text-lg font-semibold text-slate-900">
                AI Assistant Configuration
              </Dialog.Title>
              <Dialog.Description className="mt-0.5 text-sm text-slate-600">
                Set up the agent that analyses your mail and drafts replies in your voice.
              </Dialog.Description>
            </div>
            <Dialog.Close
              aria-label="Close"
              className="shrink-0 rounded-lg px-2 py-1 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              ×
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-4 py-4 sm:px-6">
            {open ? <ConfigBody userEmail={userEmail} /> : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

function ConfigBody({ userEmail }: { userEmail: string }) {
  const agent = useAgent();
  if (agent.isPending)
    return (
      <p className="text-sm text-slate-600" role="status">
        Loading…
      </p>
    );
  if (agent.isError)
    return (
      <p className="text-sm text-red-800" role="alert">
        The agent configuration could not be loaded. Close this window and try again.
      </p>
    );
  return (
    <>
      <AgentInsightsSummary />
      {/* Keyed by id: after the first save the form starts again from what was stored. */}
      <AgentSetupForm key={agent.data?.id ?? "new"} agent={agent.data ?? null} userEmail={userEmail} />
      <MemoriesList />
    </>
  );
}

/** Agent insights (spec section 3): totalMemories and totalConversations. */
export function AgentInsightsSummary() {
  const insights = useAgentInsights();
  const data = insights.data;
  return (
    <section aria-label="Agent insights" className="grid grid-cols-2 gap-2">
      <div className="rounded-xl bg-brand-50 p-3">
        <p className="text-2xl font-semibold text-brand-900" data-testid="total-memories">
          {data ? data.totalMemories : "–"}
        </p>
        <p className="text-sm text-slate-700">Memories</p>
      </div>
      <div className="rounded-xl bg-brand-50 p-3">
        <p className="text-2xl font-semibold text-brand-900" data-testid="total-conversations">
          {data ? data.totalConversations : "–"}
        </p>
        <p className="text-sm text-slate-700">Conversations</p>
      </div>
    </section>
  );
}

function MemoriesList() {
  const id = useId();
  const memories = useMemories();
  const remove = useDeleteMemory();
  const items = newestMemories(memories.data?.memories ?? [], Number.POSITIVE_INFINITY);
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-slate-200 p-4">
      <h3 id={`${id}-title`} className="font-semibold text-slate-900">
        What the agent remembers
      </h3>
      {memories.isPending ? (
        <p className="mt-2 text-sm text-slate-600" role="status">
          Loading…
        </p>
      ) : items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No memories yet.</p>
      ) : (
        <ul className="mt-2 max-h-64 space-y-1.5 overflow-y-auto" aria-label="Memories">
          {items.map((m) => (
            <li
              key={m.id}
              className="flex items-start justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm"
            >
              <span className="min-w-0 break-words text-slate-800">
                {m.content}
                <span className="ml-1 text-xs text-slate-600">({m.kind})</span>
              </span>
              <button
                type="button"
                aria-label={`Delete memory: ${m.content}`}
                disabled={remove.isPending && remove.variables === m.id}
                onClick={() => remove.mutate(m.id)}
                className="shrink-0 rounded px-2 py-0.5 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60"
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
