/**
 * GET /api/leaderboard with 100,000 people on the ranking, beside the static-JSON route of the
 * same server in the same run (GET /healthz) as the baseline.
 *
 *   npx tsx bench/game/leaderboard-load.ts                 (PGlite and PostgreSQL)
 *   BENCH_DB=postgres BENCH_USERS=20000 npx tsx bench/game/leaderboard-load.ts --no-append
 * Target: p95 < 20 ms on both backends. The ranking is read from the index and the score
 * histogram (decision 0024): no request counts the people.
 */
import { leaderboardSchema } from "../../contract/game.ts";
import { createGameService } from "../../server/game/game-service.ts";
import { createClock } from "../../server/lib/clock.ts";
import { type BackendKind, openTestDatabase } from "../../server/test/databases.ts";
import { sessionFor } from "../../server/test/factories.ts";
import { startTestServer } from "../../server/test/server.ts";
import { loadUrl, type MeasuredCall, measureRounds } from "../mail/load-runner.ts";
import { machineLine, publishResults, runMain } from "../sync/report.ts";

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
/** People whose game state is built by the real recorder (ledger, counters, badges, trigger). */
const RECORDED = Number(process.env.BENCH_RECORDED ?? 300);
const BACKENDS = (process.env.BENCH_DB ?? "pglite,postgres").split(",") as BackendKind[];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? "1,10").split(",").map(Number);

interface Line extends MeasuredCall {
  backend: BackendKind;
  name: string;
  connections: number;
}

async function runBackend(
  backend: BackendKind,
): Promise<{ lines: Line[]; seedSeconds: number; distinct: number }> {
  const t = await openTestDatabase(backend);
  try {
    const started = Date.now();
    const bulk = USERS - RECORDED;
    // The population: users and profiles written in SQL (100,000 sign-ins through the emulator
    // would take hours on two shared cores); joined over two years, a long-tailed spread of
    // processed mail, badges and streaks. The trigger builds the score histogram row by row,
    // exactly as it does for live updates.
    await t.database.executeSql(
      `insert into users (email, display_name, created_at)
       select 'bench' || i || '@example.com', 'Bench ' || i, timestamptz '2025-06-01' + (i % 730) * interval '1 day'
       from generate_series(1, $1::int) i`,
      [bulk],
    );
    await t.database.executeSql(
      `insert into game_profiles (user_id, joined_at, emails_processed, badges_earned, inbox_zero_days,
         inbox_zero_streak, best_inbox_zero_streak, is_founding_member, is_early_adopter, show_on_leaderboard)
       select id, created_at, (power(random(), 3) * 5000)::int, (random() * 12)::int, (random() * 60)::int,
         0, (power(random(), 2) * 40)::int, created_at < '2026-01-01', created_at >= '2026-01-01' and created_at < '2026-07-01',
         random() > 0.05
       from users`,
    );
    // The rest through the recorder: each person joins, processes a few emails and reaches inbox zero.
    const game = createGameService({
      db: t.database.db,
      clock: createClock(),
      config: {
        foundingMemberUntil: new Date("2026-01-01T00:00:00Z"),
        earlyAdopterUntil: new Date("2026-07-01T00:00:00Z"),
      },
    });
    await t.database.executeSql(
      `insert into users (email, display_name) select 'recorded' || i || '@example.com', 'Recorded ' || i
       from generate_series(1, $1::int) i`,
      [RECORDED],
    );
    const { rows } = await t.database.executeSql(`select id from users where email like 'recorded%'`);
    for (const [i, row] of (rows as Array<{ id: string }>).entries()) {
      await game.joined(row.id);
      await game.processed(
        row.id,
        Array.from({ length: 1 + (i % 25) }, (_, k) => `${row.id}:${k}`),
      );
    }
    await t.database.executeSql("analyze");
    const seedSeconds = (Date.now() - started) / 1000;
    const check = await t.database.executeSql(
      `select (select count(*)::int from game_profiles where show_on_leaderboard) as visible,
              (select coalesce(sum(users), 0)::int from game_score_counts) as histogram,
              (select count(*)::int from game_score_counts where users > 0) as distinct_scores`,
    );
    const c = check.rows[0] as { visible: number; histogram: number; distinct_scores: number };
    if (c.visible !== c.histogram) throw new Error(`histogram ${c.histogram} != visible ${c.visible}`);
    console.log(
      `${backend}: seeded ${USERS} people in ${seedSeconds.toFixed(0)} s; ${c.distinct_scores} distinct scores`,
    );

    const server = await startTestServer(t.database, {
      DEMO_MODE: "off",
      PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
    });
    try {
      // The asking person sits in the middle of the ranking: the widest histogram range to sum.
      const middle = await t.database.executeSql(
        `select user_id from game_profiles where show_on_leaderboard order by score desc offset $1 limit 1`,
        [Math.floor(c.visible / 2)],
      );
      const userId = (middle.rows[0] as { user_id: string }).user_id;
      const token = await sessionFor(t.database.db, userId);
      const sample = await fetch(`${server.url}/api/leaderboard`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const board = leaderboardSchema.parse(await sample.json());
      if (board.totalUsers !== c.visible) throw new Error("totalUsers disagrees with the ranking");
      console.log(`${backend}: the asking person is #${board.currentUser.rank} of ${board.totalUsers}`);
      const lines: Line[] = [];
      for (const connections of CONNECTIONS) {
        for (const [name, path, auth] of [
          ["static JSON baseline (GET /healthz)", "/healthz", undefined],
          ["GET /api/leaderboard", "/api/leaderboard", token],
        ] as const) {
          const measured = await measureRounds(
            () => loadUrl(`${server.url}${path}`, { connections, seconds: SECONDS, token: auth }),
            ROUNDS,
          );
          const line: Line = { backend, name, connections, ...measured };
          console.log(
            `${backend} ${name} ×${connections}: ${Math.round(line.rps)} req/s, p50 ${line.p50} p95 ${line.p95} (rounds ${line.p95s.join(", ")}) max ${line.max} ms, errors ${line.errors}`,
          );
          lines.push(line);
        }
      }
      return { lines, seedSeconds, distinct: c.distinct_scores };
    } finally {
      await server.close();
    }
  } finally {
    await t.destroy();
  }
}

async function main(): Promise<void> {
  const lines: Line[] = [];
  const notes: string[] = [];
  for (const backend of BACKENDS) {
    const r = await runBackend(backend);
    lines.push(...r.lines);
    notes.push(
      `${backend}: ${r.distinct.toLocaleString("en")} distinct scores, seeded in ${r.seedSeconds.toFixed(0)} s`,
    );
  }
  const table = [
    `## Leaderboard with ${USERS.toLocaleString("en")} people (autocannon, ${ROUNDS} rounds of ${SECONDS} s per call)`,
    "",
    machineLine(),
    "",
    `\`npx tsx bench/game/leaderboard-load.ts\`. ${(USERS - RECORDED).toLocaleString("en")} people written in SQL with a long-tailed`,
    `spread of counters (5% hidden from the ranking), ${RECORDED.toLocaleString("en")} more built by the real recorder (join, processed`,
    "mail, badges); the score histogram is kept by the trigger in both cases and checked against a count before measuring.",
    "The asking person is in the middle of the ranking. The static-JSON route of the same server is the same-run baseline;",
    `the ratio is leaderboard p95 / baseline p95. ${notes.join("; ")}. Target: p95 < 20 ms.`,
    "",
    "| backend | connections | call | req/s | p50 | p95 | p95 of each round | max | errors | p95 vs baseline |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...lines.map((l) => {
      const base = lines.find(
        (b) => b.backend === l.backend && b.connections === l.connections && b.name.startsWith("static"),
      );
      const ratio = base && base.p95 > 0 ? `${(l.p95 / base.p95).toFixed(1)}×` : "";
      return `| ${l.backend} | ${l.connections} | ${l.name} | ${Math.round(l.rps)} | ${l.p50} | ${l.p95} | ${l.p95s.join(", ")} | ${l.max} | ${l.errors} | ${l.name.startsWith("static") ? "1×" : ratio} |`;
    }),
  ].join("\n");
  await publishResults(table);
}

runMain(main);
