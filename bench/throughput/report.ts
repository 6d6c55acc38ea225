/**
 * The markdown of the throughput bench: per backend, one row per measure with the baseline's and
 * the new checkout's figures (median of the interleaved runs, every run's figure beside it), how
 * far apart they are, and whether the target is met.
 */
import type { MixedResult } from "../mail/mixed-load-client.ts";
import { type ProfileSummary, profileMarkdown } from "./cpu-profile-summary.ts";
import type { SingleResult } from "./single-client.ts";

/** One start of one checkout's server and what was measured on it. */
export interface VariantRun {
  variant: "base" | "new";
  readySeconds: number;
  list: SingleResult;
  search: SingleResult;
  open: SingleResult;
  archive: SingleResult;
  mixed: MixedResult;
  rssAfterLoadMb: number;
  /** 1-minute load average when the run started. */
  load: number;
  /** During the mixed load: the server's CPU (every thread) and the machine's, in % of one core. */
  appCpuPct: number;
  machineBusyPct: number;
}

export interface ThreadProfile {
  thread: string;
  summary: ProfileSummary;
}

export interface BackendResult {
  backend: string;
  runs: VariantRun[];
  profile: ThreadProfile[];
  notes: string[];
}

export interface Checkout {
  dir: string;
  commit: string;
  /** The compiled entry its server ran from; undefined: server/main.ts under tsx. */
  entry?: string | undefined;
}

export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const fmt = (n: number) =>
  !Number.isFinite(n) ? "-" : n >= 100 ? String(Math.round(n)) : String(Math.round(n * 10) / 10);

/** "new ÷ base" said the way the measure reads: more req/s, lower latency. */
export function change(base: number, next: number, higherIsBetter: boolean): string {
  if (!Number.isFinite(base) || !Number.isFinite(next) || base <= 0 || next <= 0) return "-";
  const ratio = next / base;
  if (higherIsBetter) return ratio >= 1 ? `${ratio.toFixed(2)}× more` : `${(1 / ratio).toFixed(2)}× less`;
  return ratio <= 1 ? `${(1 / ratio).toFixed(2)}× lower` : `${ratio.toFixed(2)}× higher`;
}

interface Measure {
  name: string;
  target: string;
  value: (r: VariantRun) => number;
  higherIsBetter: boolean;
  /** Met or not, from the medians; undefined: no target, shown for context. */
  met?: (base: number, next: number) => boolean;
}

const MEASURES: Measure[] = [
  {
    name: "mixed load +archive: req/s",
    target: "new ≥ 4× base",
    value: (r) => r.mixed.rps,
    higherIsBetter: true,
    met: (b, n) => n >= 4 * b,
  },
  {
    name: "mixed load +archive: p95 ms",
    target: "new ≤ base ÷ 4",
    value: (r) => r.mixed.p95,
    higherIsBetter: false,
    met: (b, n) => n <= b / 4,
  },
  {
    name: "mixed load +archive: errors",
    target: "0",
    value: (r) => r.mixed.errors,
    higherIsBetter: false,
    met: (_b, n) => n === 0,
  },
  {
    name: "mixed load: archive p95 ms",
    target: "",
    value: (r) => r.mixed.kinds.archive?.p95 ?? Number.NaN,
    higherIsBetter: false,
  },
  {
    name: "mixed load: archives done",
    target: "",
    value: (r) => r.mixed.kinds.archive?.count ?? 0,
    higherIsBetter: true,
  },
  {
    name: "single client: list p95 ms",
    target: "< 10 ms",
    value: (r) => r.list.p95,
    higherIsBetter: false,
    met: (_b, n) => n < 10,
  },
  {
    name: "single client: search p95 ms",
    target: "< 30 ms",
    value: (r) => r.search.p95,
    higherIsBetter: false,
    met: (_b, n) => n < 30,
  },
  {
    name: "single client: open p95 ms",
    target: "< 10 ms",
    value: (r) => r.open.p95,
    higherIsBetter: false,
    met: (_b, n) => n < 10,
  },
  {
    name: "single client: archive acknowledged p95 ms",
    target: "< 50 ms",
    value: (r) => r.archive.p95,
    higherIsBetter: false,
    met: (_b, n) => n < 50,
  },
  {
    name: "single-client errors (list, search, open, archive)",
    target: "0",
    value: (r) => r.list.errors + r.search.errors + r.open.errors + r.archive.errors,
    higherIsBetter: false,
    met: (_b, n) => n === 0,
  },
  {
    name: "mixed load: server CPU, % of one core",
    target: "",
    value: (r) => r.appCpuPct,
    higherIsBetter: true,
  },
  {
    name: "mixed load: machine busy, % (2 cores = 200%)",
    target: "",
    value: (r) => r.machineBusyPct,
    higherIsBetter: true,
  },
  {
    name: "server RSS after the mixed load, MB",
    target: "",
    value: (r) => r.rssAfterLoadMb,
    higherIsBetter: false,
  },
  { name: "server start to /readyz, s", target: "", value: (r) => r.readySeconds, higherIsBetter: false },
];

/** A measure's row: medians, each run's figure, the change, the verdict. */
export function measureRow(measure: Measure, runs: readonly VariantRun[]): string {
  const of = (variant: VariantRun["variant"]) => runs.filter((r) => r.variant === variant).map(measure.value);
  const base = of("base");
  const next = of("new");
  const cell = (values: number[]) =>
    values.length > 1 ? `${fmt(median(values))} (${values.map(fmt).join(", ")})` : fmt(median(values));
  const b = median(base);
  const n = median(next);
  const verdict = measure.met ? (Number.isFinite(n) && measure.met(b, n) ? "met" : "**not met**") : "";
  return `| ${measure.name} | ${measure.target} | ${cell(base)} | ${cell(next)} | ${change(b, n, measure.higherIsBetter)} | ${verdict} |`;
}

const howStarted = (c: Checkout) =>
  c.entry ? `\`node ${c.entry} --role=all\`` : "`node --import tsx server/main.ts --role=all`";

export function renderSection(opts: {
  base: Checkout;
  next: Checkout;
  machine: string;
  emails: number;
  users: number;
  mixSeconds: number;
  singleSeconds: number;
  archiveEvery: number;
  pairs: number;
  results: BackendResult[];
}): string {
  const { base, next } = opts;
  return [
    `## Throughput and latency, old vs new in the same run (issue 39): ${opts.emails.toLocaleString("en")} Gmail messages synced by the app`,
    "",
    opts.machine,
    "",
    `\`npx tsx bench/throughput/compare.ts\` (bench/throughput/README.md). Base: ${base.commit} (${base.dir}, ${howStarted(base)}); new: ${next.commit} (${next.dir}, ${howStarted(next)}).`,
    "The mailbox is generated in the emulator, signed in to through the OAuth pages, synced and analysed by the base",
    "server once per backend; the new checkout gets a copy of that database (migrated forward as it opens). One server",
    `runs at a time, same port, same emulator; runs alternate base, new, base, new (${opts.pairs} of each). Each run starts`,
    "the checkout's server (role all, production settings), warms it up (3 s of",
    `10 users), measures one client on list, search (q=meeting) and open for ${opts.singleSeconds} s each, then ${opts.users} users`,
    `with no think time for ${opts.mixSeconds} s (list -> open -> search, a mark-read every 4th round, an archive every ${opts.archiveEvery}th:`,
    "bench/mail/mixed-load-client.ts), then one client archiving distinct emails for",
    `${opts.singleSeconds} s. Figures: median of the runs, every run in brackets; latency in ms from every response.`,
    "Load clients run in processes of their own.",
    "",
    ...opts.results.flatMap((r) => [
      `### ${r.backend}`,
      "",
      ...r.notes.map((n) => `- ${n}`),
      "",
      `| measure | target | base ${base.commit} | new ${next.commit} | new vs base | verdict |`,
      "| --- | --- | --- | --- | --- | --- |",
      ...MEASURES.map((m) => measureRow(m, r.runs)),
      "",
      ...r.profile.flatMap((p) => [
        `CPU profile of the new server during the ${opts.users}-user mixed load with archives (a separate run, after the measured ones; start and warm-up left out), ${r.backend}, ${p.thread}: top five self-time entries.`,
        "",
        ...profileMarkdown(p.summary),
        "",
      ]),
    ]),
  ].join("\n");
}
