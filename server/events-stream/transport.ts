import { sql } from "drizzle-orm";
import pg from "pg";
import type { Db } from "../db/client.ts";
import { type LiveNotice, liveNoticeSchema } from "./notices.ts";

/** The NOTIFY channel of the live inbox. */
export const LIVE_CHANNEL = "mailwise_live";

type Log = { warn(obj: object, msg: string): void };

/**
 * How notices travel from the process that produced them to the processes holding streams.
 * `onNotice` receives every notice (this process's own too); `onGap` is told when notices may
 * have been lost (the listening connection dropped), so streams ask their tabs to refetch.
 */
export interface NoticeTransport {
  publish(notice: LiveNotice): Promise<void>;
  listen(onNotice: (notice: LiveNotice) => void, onGap: () => void): Promise<void>;
  close(): Promise<void>;
}

/** One process (PGlite, or tests): notices go straight to the listener, after the emit returns. */
export function createLocalTransport(): NoticeTransport {
  let listener: ((notice: LiveNotice) => void) | undefined;
  return {
    async publish(notice) {
      queueMicrotask(() => listener?.(notice));
    },
    async listen(onNotice) {
      listener = onNotice;
    },
    async close() {
      listener = undefined;
    },
  };
}

/**
 * Several processes on one PostgreSQL: NOTIFY through the pool, LISTEN on one dedicated
 * connection per listening (web) process, reopened with backoff when it drops (never a new
 * broker, issue 38). A notice that does not parse is dropped: only our processes can NOTIFY.
 */
export function createPostgresTransport(deps: {
  db: Db;
  url: string;
  log: Log;
  /** Tests shorten the reconnect wait. */
  reconnectMs?: number;
}): NoticeTransport {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnectMs = deps.reconnectMs ?? 1000;

  async function connect(
    onNotice: (n: LiveNotice) => void,
    onGap: () => void,
    attempt: number,
  ): Promise<void> {
    if (closed) return;
    const c = new pg.Client({ connectionString: deps.url });
    const reopen = () => {
      if (closed || client !== c) return;
      client = undefined;
      c.end().catch(() => undefined);
      // Whatever was notified while no one listened is lost: the streams say so.
      onGap();
      retry = setTimeout(() => void connect(onNotice, onGap, 1), reconnectMs);
    };
    c.on("error", (err) => {
      deps.log.warn({ err: err.message }, "live events: the LISTEN connection failed");
      reopen();
    });
    c.on("end", reopen);
    c.on("notification", (message) => {
      if (message.channel !== LIVE_CHANNEL || !message.payload) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.payload);
      } catch {
        return;
      }
      const notice = liveNoticeSchema.safeParse(parsed);
      if (notice.success) onNotice(notice.data);
    });
    try {
      client = c;
      await c.connect();
      await c.query(`LISTEN ${LIVE_CHANNEL}`);
      if (attempt > 0) onGap();
    } catch (err) {
      if (client === c) client = undefined;
      c.end().catch(() => undefined);
      if (closed) return;
      if (attempt === 0) throw err;
      deps.log.warn({ err: (err as Error).message }, "live events: LISTEN failed, retrying");
      retry = setTimeout(
        () => void connect(onNotice, onGap, attempt + 1),
        Math.min(30_000, reconnectMs * attempt),
      );
    }
  }

  // One NOTIFY statement in flight at a time; notices published meanwhile go together in the next
  // one. Under load a write-back's notices (a person's tabs, other processes' caches) cost a
  // statement per batch rather than one each (15% of the statements under the 50-user load), and
  // notices reach the listeners in the order they were published. (PostgreSQL delivers identical
  // payloads of one transaction once: a repeated notice says nothing new.)
  let waiting: Array<{ payload: string; done: (err?: unknown) => void }> = [];
  let sending = false;
  async function sendWaiting(): Promise<void> {
    sending = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const payloads = JSON.stringify(batch.map((item) => item.payload));
      try {
        await deps.db.execute(
          sql`select pg_notify(${LIVE_CHANNEL}, p) from json_array_elements_text(${payloads}::json) with ordinality as n(p, i) order by i`,
        );
        for (const item of batch) item.done();
      } catch (err) {
        for (const item of batch) item.done(err);
      }
    }
    sending = false;
  }

  return {
    publish(notice) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ payload: JSON.stringify(notice), done: (err) => (err ? reject(err) : resolve()) });
        if (!sending) void sendWaiting();
      });
    },
    listen: (onNotice, onGap) => connect(onNotice, onGap, 0),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
