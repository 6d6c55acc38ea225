import { namePrefix, readyStatus, renameMessage } from "./pglite-names.ts";
import { splitMessages } from "./pglite-wire.ts";

/**
 * Several node-postgres connections over PGlite's single session (decision 0088).
 *
 * With one connection, PGlite's thread waited while the main thread turned each answer into the
 * next query, and the main thread waited while PGlite ran it: under load each was idle about
 * half the time. With several, the next queries are already here when one ends. What makes the
 * shared session safe:
 * - a connection's messages run in whole batches, up to and including a Sync (or a simple Query):
 *   nobody else's Parse/Bind can replace its unnamed statement or portal mid-way;
 * - a connection whose batch leaves the session in a transaction (ReadyForQuery 'T' or 'E') holds
 *   it: only its own batches run until it is idle again, so a transaction sees no one else's
 *   statements and no one sees its uncommitted ones, as if it had the database to itself;
 * - prepared statement and portal names are prefixed per connection (pglite-names.ts), and a
 *   closed connection's transaction is rolled back and its statements deallocated.
 */
export interface SessionHost {
  /** Runs whole protocol messages in PGlite and returns the reply bytes (empty when none). */
  execute(messages: Uint8Array, syncToFs: boolean): Promise<Uint8Array>;
  /** Runs SQL outside any connection (rollback, deallocate). */
  exec(sql: string): Promise<void>;
  /** The reply to one connection. */
  reply(id: number, bytes: Uint8Array): void;
  /** A batch of this connection failed in PGlite itself (not an SQL error: those are replies). */
  failed(id: number, err: Error): void;
}

interface Connection {
  started: boolean;
  carried: Uint8Array | undefined;
  /** Whole messages since the last batch end. */
  partial: Uint8Array[];
  /** Its statements as PGlite knows them (prefixed). */
  prepared: Set<string>;
}

type Work =
  | { id: number; kind: "batch"; messages: Uint8Array[]; startup: boolean }
  | { id: number; kind: "close" };

const SYNC = 0x53;
const QUERY = 0x51;
const FLUSH = 0x48;
const TERMINATE = 0x58;

/** Byte chunks back to back in one array (the chunk itself when there is one). */
export function joinedBytes(messages: readonly Uint8Array[]): Uint8Array {
  if (messages.length === 1) return messages[0] ?? new Uint8Array(0);
  const size = messages.reduce((sum, m) => sum + m.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const m of messages) {
    out.set(m, at);
    at += m.length;
  }
  return out;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function createSessionMux(host: SessionHost) {
  const connections = new Map<number, Connection>();
  const waiting: Work[] = [];
  /** The connection in a transaction: only its work runs until it is idle again. */
  let owner: number | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  function connection(id: number): Connection {
    let c = connections.get(id);
    if (!c) {
      c = { started: false, carried: undefined, partial: [], prepared: new Set() };
      connections.set(id, c);
    }
    return c;
  }

  async function runBatch(work: Extract<Work, { kind: "batch" }>): Promise<void> {
    const c = connections.get(work.id);
    if (!c) return;
    const prefix = namePrefix(work.id);
    let reply: Uint8Array;
    try {
      const renamed = work.startup
        ? work.messages
        : work.messages.map((m) => renameMessage(m, prefix, c.prepared));
      reply = await host.execute(joinedBytes(renamed), true);
    } catch (err) {
      host.failed(work.id, err as Error);
      return;
    }
    const status = readyStatus(reply);
    if (status === "T" || status === "E") owner = work.id;
    else if (status === "I" && owner === work.id) owner = undefined;
    if (reply.length > 0) host.reply(work.id, reply);
  }

  /** A closed connection leaves nothing behind: its transaction and its statements go. */
  async function runClose(id: number): Promise<void> {
    const c = connections.get(id);
    // Whatever it queued and had not run goes with it.
    for (let i = waiting.length - 1; i >= 0; i -= 1) if (waiting[i]?.id === id) waiting.splice(i, 1);
    connections.delete(id);
    if (owner === id) {
      owner = undefined;
      await host.exec("rollback").catch(() => undefined);
    }
    for (const name of c?.prepared ?? [])
      await host.exec(`deallocate ${quoteIdent(name)}`).catch(() => undefined);
  }

  /** Where the next work to run is in `waiting`, or -1 (none, or only others' while one holds the session). */
  function nextAt(): number {
    if (owner === undefined) return waiting.length > 0 ? 0 : -1;
    return waiting.findIndex((w) => w.id === owner);
  }

  function next(): Work | undefined {
    const at = nextAt();
    return at < 0 ? undefined : waiting.splice(at, 1)[0];
  }

  function pump(): void {
    if (running || stopped) return;
    running = (async () => {
      for (let work = next(); work && !stopped; work = next()) {
        if (work.kind === "close") await runClose(work.id);
        else await runBatch(work);
      }
    })().finally(() => {
      running = undefined;
      // Work that became runnable as the last item ended.
      if (!stopped && nextAt() >= 0) pump();
    });
  }

  return {
    /** Bytes from one connection: whole batches are queued, the rest waits for more bytes. */
    data(id: number, bytes: Uint8Array): void {
      const c = connection(id);
      const { messages, rest } = splitMessages(c.carried, bytes, !c.started);
      c.carried = rest;
      for (const message of messages) {
        if (!c.started) {
          c.started = true;
          waiting.push({ id, kind: "batch", messages: [message], startup: true });
          continue;
        }
        // The connection's end arrives as a close; PGlite's one session must not see a Terminate.
        if (message[0] === TERMINATE) continue;
        c.partial.push(message);
        if (message[0] === SYNC || message[0] === QUERY || message[0] === FLUSH) {
          waiting.push({ id, kind: "batch", messages: c.partial, startup: false });
          c.partial = [];
        }
      }
      pump();
    },

    close(id: number): void {
      if (!connections.has(id)) return;
      waiting.push({ id, kind: "close" });
      pump();
    },

    /** Nothing more runs; resolves when the batch under way has ended. */
    async stop(): Promise<void> {
      stopped = true;
      await running;
    },

    /** For tests: the connection holding the session, if any. */
    get owner(): number | undefined {
      return owner;
    },
  };
}

export type SessionMux = ReturnType<typeof createSessionMux>;
