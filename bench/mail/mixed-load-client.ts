/**
 * The mixed load of api-load.ts, in its own process like load-client.ts: `users` people with no
 * think time, each over its own keep-alive connection, repeating
 *   list (GET /api/emails?limit=50) -> open one email -> search (q=<word>)
 * and on every 4th round also a mark-read toggle (PATCH isRead to the opposite of what the
 * open returned, so every write really changes the email and goes to the provider). With
 * `archiveEvery` > 0, every that-many-th round also archives an email nobody else touches
 * (PATCH isArchived: true). All users share one mailbox: one person's session on N connections.
 *
 *   npx tsx bench/mail/mixed-load-client.ts <plan.json>
 * Prints one JSON line (MixedResult): overall and per-kind latency, exact percentiles.
 */
import { readFile } from "node:fs/promises";
import { Pool } from "undici";
import { runMain } from "../sync/report.ts";
import { type LatencySummary, latencySummary } from "./latency-summary.ts";

export interface MixedPlan {
  url: string;
  token: string;
  users: number;
  seconds: number;
  searchWord: string;
  /** Emails to open and mark read/unread, shared by every user. */
  openIds: string[];
  /** Emails to archive, each used once; empty or archiveEvery 0: no archives. */
  archiveIds: string[];
  archiveEvery: number;
}

export interface KindStats extends LatencySummary {
  count: number;
  errors: number;
}

export interface MixedResult extends KindStats {
  rps: number;
  seconds: number;
  kinds: Record<string, KindStats>;
  /** A few distinct error answers (status and the start of the body), to say what failed. */
  errorSamples: string[];
}

type Kind = "list" | "open" | "search" | "mark-read" | "archive";

function stats(times: number[], errors: number): KindStats {
  return { count: times.length, ...latencySummary(times), errors };
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error("usage: mixed-load-client.ts <plan.json>");
  const plan = JSON.parse(await readFile(file, "utf8")) as MixedPlan;
  const pool = new Pool(plan.url, { connections: plan.users, pipelining: 1 });
  const auth = { authorization: `Bearer ${plan.token}` };
  const times: Record<Kind, number[]> = { list: [], open: [], search: [], "mark-read": [], archive: [] };
  const errors: Record<Kind, number> = { list: 0, open: 0, search: 0, "mark-read": 0, archive: 0 };
  const samples = new Set<string>();
  let archiveNext = 0;

  /** One request, timed from send to the last byte of the answer; returns the JSON on 2xx. */
  async function call(kind: Kind, method: "GET" | "PATCH", path: string, body?: unknown): Promise<unknown> {
    const started = performance.now();
    try {
      const answer = await pool.request({
        method,
        path,
        headers: body === undefined ? auth : { ...auth, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await answer.body.text();
      times[kind].push(performance.now() - started);
      if (answer.statusCode >= 300) {
        errors[kind] += 1;
        if (samples.size < 5) samples.add(`${kind} ${answer.statusCode} ${text.slice(0, 160)}`);
        return undefined;
      }
      return kind === "open" ? JSON.parse(text) : undefined;
    } catch (err) {
      times[kind].push(performance.now() - started);
      errors[kind] += 1;
      if (samples.size < 5) samples.add(`${kind} ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  const started = performance.now();
  const deadline = started + plan.seconds * 1000;
  const search = `/api/emails?limit=50&q=${encodeURIComponent(plan.searchWord)}`;
  const user = async (u: number) => {
    for (let round = 0; performance.now() < deadline; round++) {
      await call("list", "GET", "/api/emails?limit=50");
      // Users spread over the mailbox: user u opens email u, u + users, ... in turn.
      const id = plan.openIds[(u + round * plan.users) % plan.openIds.length] ?? "";
      const opened = (await call("open", "GET", `/api/emails/${id}`)) as { isRead?: boolean } | undefined;
      await call("search", "GET", search);
      if (round % 4 === 3 && opened) {
        await call("mark-read", "PATCH", `/api/emails/${id}`, { isRead: !opened.isRead });
      }
      if (plan.archiveEvery > 0 && round % plan.archiveEvery === plan.archiveEvery - 1) {
        const target = plan.archiveIds[archiveNext++];
        if (target) await call("archive", "PATCH", `/api/emails/${target}`, { isArchived: true });
      }
    }
  };
  await Promise.all(Array.from({ length: plan.users }, (_, u) => user(u)));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();

  const all = Object.values(times).flat();
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const kinds: Record<string, KindStats> = {};
  for (const kind of Object.keys(times) as Kind[]) {
    if (times[kind].length > 0) kinds[kind] = stats(times[kind], errors[kind]);
  }
  const out: MixedResult = {
    ...stats(all, errorCount),
    rps: all.length / seconds,
    seconds,
    kinds,
    errorSamples: [...samples],
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

runMain(main);
