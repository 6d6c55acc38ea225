import type { Database } from "./client.ts";

/** What the last statistics and space upkeep did, for /readyz. */
export interface MaintenanceStatus {
  lastAnalyze?: { at: string; reason: string; ms: number };
  lastVacuum?: { at: string; ms: number };
}

/** Rows written since the last ANALYZE after which a backfill analyses again. */
export const ANALYZE_EVERY_ROWS = 2_000;
/** Tables whose statistics the list, search and stats plans depend on. */
const TABLES = "emails, sync_states, mail_accounts";

/**
 * Statistics and space upkeep (decision 0021). PGlite has no autovacuum: without an ANALYZE the
 * planner believes a synced mailbox is empty and reads every row of it for a page of 50; without
 * a VACUUM dead rows from every update are never reclaimed. PostgreSQL's autovacuum does both, but
 * only after a threshold, so large writes (a backfill) analyse at once on both backends.
 */
export function createMaintenance(database: Pick<Database, "executeSql" | "kind">) {
  const status: MaintenanceStatus = {};
  /** One at a time: a second request while one runs shares it. */
  let running: Promise<void> | undefined;

  async function timed(statement: string): Promise<number> {
    const started = performance.now();
    await database.executeSql(statement);
    return Math.round(performance.now() - started);
  }

  return {
    status: (): MaintenanceStatus => ({ ...status }),
    /** ANALYZE of the mail tables, after a large write (`reason` says which). */
    analyze(reason: string): Promise<void> {
      running ??= (async () => {
        try {
          const ms = await timed(`analyze ${TABLES}`);
          status.lastAnalyze = { at: new Date().toISOString(), reason, ms };
        } finally {
          running = undefined;
        }
      })();
      return running;
    },
    /** VACUUM (ANALYZE) of the whole database: PGlite's scheduled stand-in for autovacuum. */
    async vacuum(): Promise<void> {
      await running;
      const ms = await timed("vacuum (analyze)");
      status.lastVacuum = { at: new Date().toISOString(), ms };
    },
  };
}

export type Maintenance = ReturnType<typeof createMaintenance>;
