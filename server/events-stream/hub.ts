import { randomBytes } from "node:crypto";
import type { LiveEventName, LiveEvents } from "../../contract/live-events.ts";
import type { Email } from "../../contract/mail.ts";
import type { TabNotice } from "./notices.ts";

/** Where a stream's bytes go (the HTTP response), and how to end it. */
export interface StreamSink {
  write(text: string): void;
  /** Bytes written but not yet sent: a tab that stops reading is dropped past a limit. */
  buffered(): number;
  end(): void;
}

export interface HubOptions {
  /** Reads the person's list rows for ids (rows.ts); called once per notice per process. */
  loadRows(userId: string, ids: readonly string[]): Promise<Email[]>;
  /** Events kept per person for resuming (default 200). */
  ringSize?: number;
  /** How long a person's buffer outlives their last stream, for a reconnect (default 5 min). */
  keepMs?: number;
  /** Keep-alive comment interval (default 20 s; proxies drop idle connections at 30-60 s). */
  keepAliveMs?: number;
  /** A stream is ended after this long so a signed-out session stops hearing (default 10 min). */
  maxStreamMs?: number;
  /** A stream whose unsent bytes pass this is ended (default 1 MiB). */
  maxBufferedBytes?: number;
  log?: { warn(obj: object, msg: string): void };
}

interface Frame {
  seq: number;
  text: string;
}

interface Stream {
  sink: StreamSink;
  openedAt: number;
}

interface PersonState {
  streams: Set<Stream>;
  ring: Frame[];
  /** Every event of this person with a seq above this is in the ring (or was never made). */
  coveredFrom: number;
  lastStreamAt: number;
  /** Notices of one person are turned into events one after another, so ids stay in order. */
  chain: Promise<void>;
}

/**
 * The live inbox's per-process fan-out (decision 0074). Event ids are `<epoch>.<seq>`: the epoch
 * is random per process start and seq grows by one per event of any person, so the ids one person
 * sees are monotonic. A resume id from another epoch (a restart, another web process behind the
 * proxy) or from before the person's buffer starts cannot be replayed: the stream then says
 * `refetch` and the tab reads everything again.
 */
export function createLiveHub(options: HubOptions) {
  const epoch = randomBytes(6).toString("base64url");
  const ringSize = options.ringSize ?? 200;
  const keepMs = options.keepMs ?? 5 * 60_000;
  const keepAliveMs = options.keepAliveMs ?? 20_000;
  const maxStreamMs = options.maxStreamMs ?? 10 * 60_000;
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
  const people = new Map<string, PersonState>();
  let seq = 0;
  let streamCount = 0;

  const idOf = (n: number) => `${epoch}.${n}`;

  function frame<K extends LiveEventName>(name: K, data: LiveEvents[K], n: number): string {
    return `id: ${idOf(n)}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  }

  function closeStream(person: PersonState, stream: Stream): void {
    if (!person.streams.delete(stream)) return;
    streamCount--;
    person.lastStreamAt = Date.now();
    try {
      stream.sink.end();
    } catch {
      // the socket is gone already
    }
  }

  function send(person: PersonState, stream: Stream, text: string): void {
    try {
      stream.sink.write(text);
    } catch {
      closeStream(person, stream);
      return;
    }
    if (stream.sink.buffered() > maxBuffered) {
      options.log?.warn({ buffered: stream.sink.buffered() }, "live events: a stream stopped reading; ended");
      closeStream(person, stream);
    }
  }

  function append<K extends LiveEventName>(person: PersonState, name: K, data: LiveEvents[K]): void {
    seq++;
    const f = { seq, text: frame(name, data, seq) };
    person.ring.push(f);
    if (person.ring.length > ringSize) {
      const dropped = person.ring.shift();
      if (dropped) person.coveredFrom = dropped.seq;
    }
    for (const stream of person.streams) send(person, stream, f.text);
  }

  async function eventFor(
    notice: TabNotice,
  ): Promise<{ name: LiveEventName; data: LiveEvents[LiveEventName] }> {
    switch (notice.kind) {
      case "mail.new":
        return { name: "mail.new", data: { emails: await options.loadRows(notice.userId, notice.ids) } };
      case "mail.changed":
        // An action's change applies as is; a sync's change comes with the rows as stored now.
        if (notice.change)
          return { name: "mail.changed", data: { ids: notice.ids, change: notice.change, emails: [] } };
        return {
          name: "mail.changed",
          data: { ids: notice.ids, emails: await options.loadRows(notice.userId, notice.ids) },
        };
      case "analysis.done":
        return { name: "analysis.done", data: { emails: await options.loadRows(notice.userId, notice.ids) } };
      case "write.refused":
        return {
          name: "write.refused",
          data: {
            ids: notice.ids,
            action: notice.action,
            message: notice.message,
            emails: await options.loadRows(notice.userId, notice.ids),
          },
        };
      case "sync.progress":
        return { name: "sync.progress", data: { accountId: notice.accountId } };
      case "overflow":
        return { name: "refetch", data: { reason: "overflow" } };
      case "refresh":
        return { name: "refetch", data: { reason: "changed" } };
    }
  }

  // One timer for every stream: keep-alive comments, streams past their age, forgotten buffers.
  const ticker = setInterval(() => {
    const now = Date.now();
    for (const [userId, person] of people) {
      for (const stream of person.streams) {
        if (now - stream.openedAt > maxStreamMs) closeStream(person, stream);
        else send(person, stream, ":\n\n");
      }
      if (person.streams.size === 0 && now - person.lastStreamAt > keepMs) people.delete(userId);
    }
  }, keepAliveMs);
  ticker.unref();

  return {
    epoch,
    /**
     * Opens a stream for the person. `lastEventId` (the Last-Event-ID header) resumes: the events
     * after it are sent again, or `refetch` when they cannot be. The first frame is `ready` with
     * an id, so a tab that hears nothing else still has a point to resume from.
     */
    open(userId: string, lastEventId: string | undefined, sink: StreamSink): () => void {
      let person = people.get(userId);
      if (!person) {
        person = {
          streams: new Set(),
          ring: [],
          coveredFrom: seq,
          lastStreamAt: Date.now(),
          chain: Promise.resolve(),
        };
        people.set(userId, person);
      }
      const stream: Stream = { sink, openedAt: Date.now() };
      // A retry hint for EventSource-style readers, then what was missed.
      sink.write("retry: 2000\n\n");
      let resumed = false;
      if (lastEventId !== undefined) {
        const match = /^([A-Za-z0-9_-]{1,16})\.(\d{1,15})$/.exec(lastEventId);
        const last = match && match[1] === epoch ? Number(match[2]) : undefined;
        if (last !== undefined && last >= person.coveredFrom && last <= seq) {
          for (const f of person.ring) if (f.seq > last) sink.write(f.text);
          resumed = true;
        } else {
          sink.write(frame("refetch", { reason: "gap" }, seq));
        }
      }
      sink.write(`id: ${idOf(seq)}\nevent: ready\ndata: ${JSON.stringify({ resumed })}\n\n`);
      person.streams.add(stream);
      streamCount++;
      const owner = person;
      return () => closeStream(owner, stream);
    },

    /** A notice from the transport: turned into one event for the person's streams and buffer. */
    deliver(notice: TabNotice): Promise<void> {
      const person = people.get(notice.userId);
      // Nobody of this person listened here lately: nothing to send or to keep for a resume.
      if (!person) return Promise.resolve();
      person.chain = person.chain.then(async () => {
        try {
          const { name, data } = await eventFor(notice);
          append(person, name, data);
        } catch (err) {
          options.log?.warn(
            { err: (err as Error).message, kind: notice.kind },
            "live events: a notice failed",
          );
          append(person, "refetch", { reason: "gap" });
        }
      });
      return person.chain;
    },

    /** Notices may have been lost (the LISTEN connection dropped): every open tab refetches. */
    gapAll(): void {
      for (const person of people.values()) {
        person.chain = person.chain.then(() => {
          append(person, "refetch", { reason: "gap" });
        });
      }
    },

    /** Open streams in this process (the benchmark and tests read it). */
    streams: () => streamCount,

    /** Ends every stream (server shutdown): tabs reconnect to the next process. */
    close(): void {
      clearInterval(ticker);
      for (const person of people.values())
        for (const stream of [...person.streams]) closeStream(person, stream);
      people.clear();
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
