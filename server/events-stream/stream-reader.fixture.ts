/** A test's reader of GET /api/events: fetch with the bearer token, events parsed as they come. */
export interface ReadEvent {
  id: string | undefined;
  event: string;
  data: unknown;
}

export interface StreamReader {
  status: number;
  events: ReadEvent[];
  /** Resolves with the first event (from the start) that passes `match`. */
  next(match: (e: ReadEvent) => boolean, timeoutMs?: number): Promise<ReadEvent>;
  close(): void;
}

export async function openStream(
  url: string,
  token: string | undefined,
  lastEventId?: string,
): Promise<StreamReader> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (lastEventId) headers["last-event-id"] = lastEventId;
  const res = await fetch(`${url}/api/events`, { headers, signal: abort.signal });
  const events: ReadEvent[] = [];
  const waiters = new Set<() => void>();
  if (res.ok && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
        if (done) return;
        buffer += value;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) =>
            block
              .split("\n")
              .find((l) => l.startsWith(`${name}: `))
              ?.slice(name.length + 2);
          const event = field("event");
          if (event) events.push({ id: field("id"), event, data: JSON.parse(field("data") ?? "null") });
          for (const wake of waiters) wake();
          end = buffer.indexOf("\n\n");
        }
      }
    })();
  }
  return {
    status: res.status,
    events,
    next(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event; got ${events.map((e) => e.event).join(", ")}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
