/**
 * Archive acknowledged (issue 39): single-client PATCH isArchived on a Gmail mailbox the app
 * synced itself (the emulator, the real sign-in, sync and analysis), for the baseline checkout
 * (BENCH_BASE_DIR, default /work/wt/base at dab9444) and this one, in the same run. The ack is
 * the whole request: the local change, the provider's write-back, and what follows it. After the
 * timed archives, a burst of BENCH_BURST archives (8 at once) shows how many syncs the writes
 * started: sync_states.last_synced_at moves once per finished sync.
 *
 *   npx tsx bench/fairness/archive-ack.ts            (BENCH_EMAILS=2000, BENCH_DB=pglite)
 *   BENCH_EMAILS=10000 npx tsx bench/fairness/archive-ack.ts --no-append
 * Target: archive p95 under 50 ms.
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { EmailListResponse, SyncStatus } from "../../contract/mail.ts";
import { PEOPLE } from "../../server/test/auth-fixture.ts";
import type { BackendKind } from "../../server/test/databases.ts";
import { freePort } from "../../server/test/free-port.ts";
import { type AppProcess, startAppProcess } from "../mail/app-process.ts";
import {
  benchAppEnv,
  benchEmulator,
  emulatorAdmin,
  freshDatabase,
  getJson,
  signIn,
  until,
} from "../mail/bench-kit.ts";
import { type LatencySummary, latencySummary } from "../mail/latency-summary.ts";
import { machineLine, publishResults, runMain } from "../sync/report.ts";

const BACKEND = (process.env.BENCH_DB ?? "pglite") as BackendKind;
const COUNT = Number(process.env.BENCH_EMAILS ?? 2_000);
const ARCHIVES = Number(process.env.BENCH_ARCHIVES ?? 60);
const BURST = Number(process.env.BENCH_BURST ?? 40);
const BASE_DIR = process.env.BENCH_BASE_DIR ?? "/work/wt/base";
const EMAIL = PEOPLE.alex;
const PUSH_SECRET = randomBytes(16).toString("hex");

interface Variant {
  name: string;
  ack: LatencySummary;
  errors: number;
  burstSeconds: number;
  syncsAfterBurst: number;
}

async function patch(app: AppProcess, token: string, id: string): Promise<number> {
  const r = await fetch(`${app.url}/api/emails/${id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ isArchived: true }),
  });
  await r.arrayBuffer();
  return r.status;
}

async function lastSynced(app: AppProcess, token: string): Promise<string | null> {
  const { accounts } = await getJson<{ accounts: SyncStatus[] }>(app, token, "/api/emails/sync-status");
  return accounts[0]?.lastSyncedAt ?? null;
}

async function run(name: string, cwd: string | undefined): Promise<Variant> {
  const database = await freshDatabase(BACKEND);
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const emulator = await benchEmulator(appUrl, PUSH_SECRET, ["gmail"]);
  let app: AppProcess | undefined;
  try {
    const admin = emulatorAdmin(emulator.url);
    await admin("PUT", "mail/faults", { gmailQuota: { enabled: false }, graphThrottle: { enabled: false } });
    await admin("POST", `mailboxes/${encodeURIComponent(EMAIL)}/generate`, {
      count: COUNT,
      seed: 42,
      days: 60,
    });
    app = await startAppProcess({
      name,
      port,
      env: benchAppEnv(appUrl, emulator.url, PUSH_SECRET, database.env),
      ...(cwd ? { rootDir: cwd } : {}),
    });
    const a = app;
    const token = await signIn(a, "gmail", EMAIL);
    await until("sync", 60 * 60_000, async () => {
      const { accounts } = await getJson<{ accounts: SyncStatus[] }>(a, token, "/api/emails/sync-status");
      const s = accounts[0];
      return s?.status === "idle" && (s.totalEstimate ?? 0) >= COUNT ? s : undefined;
    });
    await until("analysis", 60 * 60_000, async () => {
      const { pending } = await getJson<{ pending: number }>(
        a,
        token,
        `/api/_test/ai-pending?email=${encodeURIComponent(EMAIL)}`,
      );
      return pending === 0 ? true : undefined;
    });
    await sleep(3_000);
    const ids: string[] = [];
    let cursor: string | null = null;
    while (ids.length < ARCHIVES + BURST + 20) {
      const page: EmailListResponse = await getJson<EmailListResponse>(
        a,
        token,
        `/api/emails?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      ids.push(...page.emails.map((e) => e.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    // Warm-up: the first archives prepare statements and open the provider's connection.
    for (const id of ids.splice(0, 10)) await patch(a, token, id);
    await sleep(3_000);
    const times: number[] = [];
    let errors = 0;
    for (const id of ids.splice(0, ARCHIVES)) {
      const started = performance.now();
      const status = await patch(a, token, id);
      times.push(performance.now() - started);
      if (status !== 200) errors += 1;
      // One click at a time, as a person: a short pause between them.
      await sleep(50);
    }
    // Let the syncs those archives started finish, then count the ones a burst starts.
    await sleep(5_000);
    const before = await lastSynced(a, token);
    const burst = ids.splice(0, BURST);
    const burstStarted = performance.now();
    for (let i = 0; i < burst.length; i += 8) {
      const statuses = await Promise.all(burst.slice(i, i + 8).map((id) => patch(a, token, id)));
      errors += statuses.filter((s) => s !== 200).length;
    }
    const burstSeconds = (performance.now() - burstStarted) / 1000;
    // Count distinct last_synced_at values over the next seconds: each is one finished sync.
    const seen = new Set<string>();
    const watchUntil = performance.now() + 8_000;
    while (performance.now() < watchUntil) {
      const at = await lastSynced(a, token);
      if (at && at !== before) seen.add(at);
      await sleep(100);
    }
    return { name, ack: latencySummary(times), errors, burstSeconds, syncsAfterBurst: seen.size };
  } finally {
    await app?.close();
    await emulator.close();
    await database.destroy();
  }
}

async function main(): Promise<void> {
  const results = [await run("old (dab9444)", BASE_DIR), await run("new", undefined)];
  const row = (r: Variant) =>
    `| ${r.name} | ${r.ack.p50} | ${r.ack.p95} | ${r.ack.max} | ${r.errors} | ${r.burstSeconds.toFixed(1)} | ${r.syncsAfterBurst} |`;
  await publishResults(`## Archive acknowledged (issue 39, bench/fairness/archive-ack.ts)

${machineLine()} · ${BACKEND} · ${COUNT.toLocaleString("en")} Gmail messages synced and analysed by the app · ${ARCHIVES} archives one at a time (PATCH isArchived, 50 ms apart), then ${BURST} in bursts of 8.
"syncs seen" counts distinct last_synced_at values in the 8 s after the burst (sampled every 100 ms, so back-to-back syncs can merge).

| server | archive ack p50 ms | p95 ms | max ms | errors | burst seconds | syncs seen after the burst |
|---|---|---|---|---|---|---|
${results.map(row).join("\n")}
`);
}

runMain(main);
