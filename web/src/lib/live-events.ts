/**
 * The tab's one live inbox stream (GET /api/events, decision 0074), read with fetch so it carries
 * the same bearer token as every call. It reconnects by itself with backoff, resuming after the
 * last event id it saw; the server answers `refetch` when it cannot replay. Its state ("live",
 * "reconnecting") slows the sync-status poll while events flow and shows a calm banner while not.
 */
import { LIVE_EVENTS_PATH, type LiveEventName } from "../../../contract/live-events.ts";
import { responseError } from "./api.ts";
import { createSseParser } from "./sse-parser.ts";
import { readSessionToken } from "./storage-keys.ts";

export type LiveState = "off" | "connecting" | "live" | "reconnecting";

/** The server sends a keep-alive every 20 s: this long without a byte means the line is dead. */
const SILENCE_MS = 45_000;
/** Waits between attempts: quick at first (a restart takes seconds), then at most 15 s. */
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 15_000];

let state: LiveState = "off";
const watchers = new Set<() => void>();

function setState(next: LiveState): void {
  if (state === next) return;
  state = next;
  for (const watch of watchers) watch();
}

export function liveState(): LiveState {
  return state;
}

/** For useSyncExternalStore. */
export function subscribeLiveState(watch: () => void): () => void {
  watchers.add(watch);
  return () => watchers.delete(watch);
}

/** Whether events are flowing now (the poll can slow down). */
export function isLive(): boolean {
  return state === "live";
}

export type LiveHandler = (name: LiveEventName | "ready", data: unknown) => void;

let running: { stop(): void } | undefined;

/**
 * Opens the tab's stream (a second call replaces the first: one stream per tab) and returns the
 * function that closes it. `onEvent` gets each event with its parsed data; `ready` tells whether
 * the stream resumed (`{resumed}`). `onLostTouch` runs when the tab may have missed events the
 * server cannot know of (it dropped before its first event, so it had no id to resume from).
 */
export function startLiveEvents(onEvent: LiveHandler, onLostTouch: () => void): () => void {
  running?.stop();
  let stopped = false;
  let abort: AbortController | undefined;
  let lastId: string | undefined;
  let wake: (() => void) | undefined;
  let attempt = 0;
  // Without an id the server cannot replay what the tab missed: it reads everything again once
  // the stream is back (at the next ready).
  let needsRefetch = false;
  const dispatch: LiveHandler = (name, data) => {
    if (name === "ready" && needsRefetch) {
      needsRefetch = false;
      onLostTouch();
    }
    onEvent(name, data);
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  // Back online: try at once instead of waiting out the backoff. Gone offline: the stream is
  // dead even if the socket has not noticed yet, so say so now rather than after the silence.
  const onOnline = () => wake?.();
  const onOffline = () => abort?.abort();
  window.addEventListener("online", onOnline);
  window.addEventListener("offline", onOffline);

  async function connectOnce(): Promise<"again" | "stop"> {
    const token = readSessionToken();
    if (!token) return "stop";
    abort = new AbortController();
    const headers: Record<string, string> = { Accept: "text/event-stream", Authorization: `Bearer ${token}` };
    if (lastId) headers["Last-Event-ID"] = lastId;
    const res = await fetch(LIVE_EVENTS_PATH, { headers, signal: abort.signal, cache: "no-store" });
    if (res.status === 401) {
      // The session ended: the usual sign-out handling, and no more attempts.
      await responseError(res);
      return "stop";
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      return "again";
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let silence: ReturnType<typeof setTimeout> | undefined;
    const listen = () => {
      clearTimeout(silence);
      silence = setTimeout(() => abort?.abort(), SILENCE_MS);
    };
    const parse = createSseParser((event) => {
      if (event.id) lastId = event.id;
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (event.event === "ready") {
        setState("live");
        attempt = 0;
      }
      dispatch(event.event as LiveEventName | "ready", data);
    });
    listen();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        listen();
        parse(value);
      }
    } finally {
      clearTimeout(silence);
    }
    return "again";
  }

  void (async () => {
    setState("connecting");
    while (!stopped) {
      let outcome: "again" | "stop" = "again";
      try {
        outcome = await connectOnce();
      } catch {
        // network failure or abort: try again below
      }
      if (stopped || outcome === "stop") break;
      setState("reconnecting");
      if (!lastId) needsRefetch = true;
      await sleep(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? 15_000);
      attempt++;
    }
    if (!stopped) setState("off");
  })();
  const stop = () => {
    stopped = true;
    window.removeEventListener("online", onOnline);
    window.removeEventListener("offline", onOffline);
    abort?.abort();
    wake?.();
    setState("off");
    if (running === handle) running = undefined;
  };
  const handle = { stop };
  running = handle;
  return stop;
}
