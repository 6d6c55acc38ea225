/**
 * Issue 38: 1,000 open event streams on one process. The real server in its own process (PGlite,
 * production settings) with a synced mailbox; the list call's latency is measured without
 * streams, then with 1,000 streams open (one person's, so every event reaches all of them), in the
 * same run. Also: the server's resident memory before and after, and how long one new mail takes
 * to reach all 1,000 streams. Targets: RSS increase < 100 MB, list latency kept.
 *
 *   npx tsx bench/live/streams.ts [--no-append]
 */
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { machineLine, percentile, publishResults, runMain } from "../sync/report.ts";
import { startLiveApp } from "./live-app.ts";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const CALLS = Number(process.env.BENCH_LIST_CALLS ?? 300);

interface OpenStream {
  /** Resolves when the stream has received a chunk containing `text`. */
  waitFor(text: string): Promise<number>;
  close(): void;
}

/** One stream on its own socket (no agent pooling), as a browser tab holds one. */
function openStream(url: string, token: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const waiters: Array<{ text: string; done: (at: number) => void }> = [];
    const req = http.get(
      `${url}/api/events`,
      { agent: false, headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding("utf8");
        let ready = false;
        res.on("data", (chunk: string) => {
          if (!ready && chunk.includes("event: ready")) {
            ready = true;
            resolve({
              waitFor: (text) => new Promise((done) => waiters.push({ text, done })),
              close: () => req.destroy(),
            });
          }
          for (let i = waiters.length - 1; i >= 0; i--) {
            const w = waiters[i];
            if (w && chunk.includes(w.text)) {
              waiters.splice(i, 1);
              w.done(performance.now());
            }
          }
        });
      },
    );
    req.on("error", (err) => (err.message === "socket hang up" ? undefined : reject(err)));
  });
}

async function listLatencies(url: string, token: string): Promise<{ p50: number; p95: number }> {
  const get = async () => {
    const r = await fetch(`${url}/api/emails?limit=50`, { headers: { authorization: `Bearer ${token}` } });
    if (r.status !== 200) throw new Error(`list answered ${r.status}`);
    await r.arrayBuffer();
  };
  for (let i = 0; i < 30; i++) await get();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await get();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

async function main(): Promise<void> {
  const live = await startLiveApp(2000);
  const { app, token } = live;
  let section = "";
  try {
    const before = await listLatencies(app.url, token);
    await sleep(2000);
    const rssBefore = await app.rssMb();
    const streams: OpenStream[] = [];
    const t0 = performance.now();
    for (let i = 0; i < STREAMS; i += 50) {
      streams.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, STREAMS - i) }, () => openStream(app.url, token)),
        )),
      );
    }
    const openMs = performance.now() - t0;
    await sleep(5000);
    const rssWith = await app.rssMb();
    const withStreams = await listLatencies(app.url, token);
    // One new mail: from the provider's push to every stream.
    const subject = `Fan-out probe ${Date.now()}`;
    const arrivals = streams.map((s) => s.waitFor(subject));
    const pushAt = performance.now();
    await live.inject(subject);
    const times = await Promise.all(arrivals);
    const first = Math.min(...times) - pushAt;
    const last = Math.max(...times) - pushAt;
    const rssAfterEvent = await app.rssMb();
    for (const s of streams) s.close();
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    section = [
      "## Live inbox: 1,000 open event streams on one process (issue 38)",
      "",
      machineLine(),
      "",
      "`npx tsx bench/live/streams.ts`. The server in its own process (PGlite, production settings), a synced",
      `mailbox of 2,000 mails, ${STREAMS.toLocaleString("en-US")} streams of GET /api/events (one person's, each on its own socket) opened`,
      `from the bench process. GET /api/emails?limit=50, ${CALLS} sequential calls after 30 warm-up calls, without and`,
      "with the streams open, in the same run. Targets: RSS increase < 100 MB; list latency kept.",
      "",
      "| measure | without streams | with streams | change |",
      "| --- | --- | --- | --- |",
      `| server RSS | ${rssBefore.toFixed(0)} MB | ${rssWith.toFixed(0)} MB | +${(rssWith - rssBefore).toFixed(1)} MB |`,
      `| list p50 | ${ms(before.p50)} | ${ms(withStreams.p50)} | x${(withStreams.p50 / before.p50).toFixed(2)} |`,
      `| list p95 | ${ms(before.p95)} | ${ms(withStreams.p95)} | x${(withStreams.p95 / before.p95).toFixed(2)} |`,
      "",
      `Opening the ${STREAMS.toLocaleString("en-US")} streams took ${Math.round(openMs)} ms. One pushed mail reached the first stream`,
      `${Math.round(first)} ms and the last ${Math.round(last)} ms after the push (its rows read once, written to every stream).`,
      `RSS after that event: ${rssAfterEvent.toFixed(0)} MB.`,
    ].join("\n");
  } finally {
    await live.close();
  }
  await publishResults(section);
}

runMain(main);
