import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { mailAccounts, syncStates } from "../db/schema.ts";
import type { SyncContext } from "./context.ts";
import type { SyncReason } from "./types.ts";
import { renewMarginMs } from "./watch-renewer.ts";

export interface PollerDeps extends SyncContext {
  pollSeconds: number;
  requestSync(accountId: string, reason: SyncReason): Promise<void>;
  requestWatchRenew(accountId: string): Promise<void>;
}

/**
 * The polling fallback (worker role): pushes can be late or lost, so every `pollSeconds` each
 * active account whose last sync is older than that gets a sync, which also resumes a backfill a
 * killed worker left behind. Push watches close to expiry are renewed. Several workers may poll
 * at once; requestSync collapses their triggers.
 */
export function createPoller(deps: PollerDeps) {
  let timer: NodeJS.Timeout | undefined;
  let first: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function tick(): Promise<void> {
    const stale = await deps.db
      .select({ id: mailAccounts.id })
      .from(mailAccounts)
      .leftJoin(syncStates, eq(syncStates.accountId, mailAccounts.id))
      .where(
        and(
          eq(mailAccounts.status, "active"),
          or(
            isNull(syncStates.lastSyncedAt),
            lt(syncStates.lastSyncedAt, sql`now() - make_interval(secs => ${deps.pollSeconds})`),
          ),
        ),
      );
    for (const { id } of stale) await deps.requestSync(id, "poll");

    const watched = await deps.db
      .select({ id: mailAccounts.id, provider: mailAccounts.provider, expiresAt: syncStates.pushExpiresAt })
      .from(mailAccounts)
      .innerJoin(syncStates, eq(syncStates.accountId, mailAccounts.id))
      .where(and(eq(mailAccounts.status, "active"), sql`${syncStates.generation} > 0`));
    const now = deps.clock.nowMs();
    for (const w of watched) {
      const margin = renewMarginMs(w.provider === "gmail" ? "gmail" : "outlook");
      if (!w.expiresAt || w.expiresAt.getTime() - now <= margin) await deps.requestWatchRenew(w.id);
    }
  }

  const run = () => {
    if (running) return;
    running = tick()
      .catch((err: unknown) =>
        deps.log.error({ error: err instanceof Error ? err.message : "unknown" }, "sync poll failed"),
      )
      .finally(() => {
        running = undefined;
      });
  };

  return {
    /** Polls now-ish (resuming whatever a previous process left) and then every pollSeconds. */
    start(firstDelayMs = 1_000): void {
      if (timer) return;
      first = setTimeout(run, firstDelayMs);
      first.unref();
      timer = setInterval(run, deps.pollSeconds * 1000);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      timer = undefined;
      first = undefined;
      await running;
    },
    tick,
  };
}
