import type { DueActionAttention, DueActionAttentionList } from "../../../contract/due-actions.ts";
import type { dueActions } from "../../db/schema.ts";
import { DomainError } from "../../http/errors.ts";
import type { Clock } from "../../lib/clock.ts";
import type { DueActionStore } from "./store.ts";

/** Puts one kind's action in words for the person, from its payload ("Send “Lunch?” to …"). */
export type DueActionDescriber = (payload: unknown) => string | null;

/** Words for kinds whose feature did not register a describer of its own. */
const FALLBACK_LABELS: Record<string, string> = {
  send: "Send a mail",
  "snooze.wake": "Bring back a snoozed conversation",
  "followup.check": "Follow-up reminder",
};

export interface AttentionDeps {
  store: DueActionStore;
  clock: Clock;
  /** One describer per kind, filled by each feature as it registers its handler. */
  describers: ReadonlyMap<string, DueActionDescriber>;
  /** Sweeps now where this process sweeps (a Retry is due at once). */
  wake: () => void;
}

/**
 * The person's side of failures (decision 0073), generic over kinds: what was given up or waits
 * for a reconnect, and Retry / Dismiss. Every statement is scoped to the person.
 */
export function createDueActionAttention(deps: AttentionDeps) {
  const { store, clock, describers } = deps;

  function labelOf(row: typeof dueActions.$inferSelect): string {
    let label: string | null = null;
    try {
      label = describers.get(row.kind)?.(row.payload) ?? null;
    } catch {
      label = null;
    }
    return label ?? FALLBACK_LABELS[row.kind] ?? "A scheduled action";
  }

  function present(row: typeof dueActions.$inferSelect): DueActionAttention {
    return {
      id: row.id,
      kind: row.kind,
      label: labelOf(row),
      status: row.status === "waiting" ? "waiting" : "failed",
      reason: row.lastError,
      runAt: row.runAt.toISOString(),
      attempts: row.attempts,
    };
  }

  return {
    async list(userId: string): Promise<DueActionAttentionList> {
      const rows = await store.listNeedingAttention(userId);
      return { items: rows.map(present) };
    },

    async retry(userId: string, id: string): Promise<void> {
      if (!(await store.retryFailed(userId, id, clock.now())))
        throw new DomainError("not_found", "No such failed action.");
      deps.wake();
    },

    async dismiss(userId: string, id: string): Promise<void> {
      if (!(await store.dismissFailed(userId, id)))
        throw new DomainError("not_found", "No such failed action.");
    },
  };
}

export type DueActionAttentionService = ReturnType<typeof createDueActionAttention>;
