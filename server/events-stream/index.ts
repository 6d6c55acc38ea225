import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { EventBus } from "../events.ts";
import { createLiveHub, type HubOptions, type LiveHub } from "./hub.ts";
import { isTabNotice, type LiveNotice } from "./notices.ts";
import { startLivePublisher } from "./publisher.ts";
import { loadListRows } from "./rows.ts";
import { createLocalTransport, createPostgresTransport, type NoticeTransport } from "./transport.ts";

export { registerLiveEventsRoute } from "./routes.ts";

export interface LiveEvents {
  /** The fan-out to this process's streams; absent in worker processes, which serve no HTTP. */
  hub: LiveHub | undefined;
  /** Starts listening for notices (PostgreSQL: LISTEN on its own connection). */
  start(): Promise<void>;
  /**
   * Hears every notice this process receives (its own too), and `onGap` when some may have been
   * lost; subscribe before start(). Only processes that serve HTTP listen. Returns the unsubscribe.
   */
  onNotice(listener: (notice: LiveNotice) => void, onGap: () => void): () => void;
  /**
   * Tells every web process the person's mail changed by a path that sends no notice of its own;
   * with `tabs`, the person's tabs are told to read their views again too; with `emailIds`
   * (at most MAX_IDS_PER_NOTICE, no `tabs`), only those emails changed.
   */
  touch(userId: string, options?: { tabs?: boolean; emailIds?: string[] }): Promise<void>;
  /** Tells every web process that sessions ended, so none keeps accepting them from its cache. */
  sessionsEnded(ended: { userId: string; sessionId?: string }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The live inbox (issue 38): every role publishes its domain events as notices; processes that
 * serve HTTP hold streams and fan notices out. One process on PGlite passes notices in memory;
 * PostgreSQL carries them between processes by LISTEN/NOTIFY.
 */
export function createLiveEvents(deps: {
  config: Config;
  database: Database;
  events: EventBus;
  serves: boolean;
  log: { warn(obj: object, msg: string): void };
  hub?: Partial<Omit<HubOptions, "loadRows" | "log">>;
}): LiveEvents {
  const { database, config, log } = deps;
  // The database decides, not the config: tests open PostgreSQL under a PGlite-shaped config.
  const url =
    database.connectionUrl ?? (config.database.kind === "postgres" ? config.database.url : undefined);
  const transport: NoticeTransport =
    database.kind === "postgres" && url
      ? createPostgresTransport({ db: database.db, url, log })
      : createLocalTransport();
  const stopPublishing = startLivePublisher({ db: database.db, events: deps.events, transport, log });
  const hub = deps.serves
    ? createLiveHub({ ...deps.hub, loadRows: (userId, ids) => loadListRows(database.db, userId, ids), log })
    : undefined;
  const listeners = new Set<{ notice: (notice: LiveNotice) => void; gap: () => void }>();
  return {
    hub,
    async start() {
      if (hub)
        await transport.listen(
          (notice) => {
            for (const l of listeners) l.notice(notice);
            if (isTabNotice(notice)) void hub.deliver(notice);
          },
          () => {
            for (const l of listeners) l.gap();
            hub.gapAll();
          },
        );
    },
    onNotice(notice, gap) {
      const entry = { notice, gap };
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
    async touch(userId, options) {
      try {
        const ids = options?.emailIds;
        await transport.publish(
          options?.tabs ? { kind: "refresh", userId } : { kind: "stale", userId, ...(ids ? { ids } : {}) },
        );
      } catch (err) {
        log.warn({ err: (err as Error).message }, "live events: a stale notice failed");
      }
    },
    async sessionsEnded({ userId, sessionId }) {
      try {
        await transport.publish({ kind: "sessions.ended", userId, ...(sessionId ? { sessionId } : {}) });
      } catch (err) {
        log.warn({ err: (err as Error).message }, "live events: a sessions-ended notice failed");
      }
    },
    async stop() {
      stopPublishing();
      hub?.close();
      await transport.close();
    },
  };
}
