import { describe, expect, it } from "vitest";
import type { MixedResult } from "../mail/mixed-load-client.ts";
import { change, median, renderSection, type VariantRun } from "./report.ts";

const single = (p95: number) => ({ p50: p95 / 2, p95, p99: p95, max: p95, count: 10, errors: 0 });

function run(variant: VariantRun["variant"], rps: number, p95: number, listP95: number): VariantRun {
  const mixed: MixedResult = {
    rps,
    seconds: 20,
    p50: p95 / 2,
    p95,
    p99: p95,
    max: p95,
    count: rps * 20,
    errors: 0,
    kinds: { archive: { count: 40, errors: 0, p50: 5, p95: 9, p99: 9, max: 9 } },
    errorSamples: [],
  };
  return {
    variant,
    readySeconds: 5,
    list: single(listP95),
    search: single(20),
    open: single(5),
    archive: single(30),
    mixed,
    rssAfterLoadMb: 300,
    load: 1,
    appCpuPct: 100,
    machineBusyPct: 150,
  };
}

describe("throughput report", () => {
  it("takes the median of odd and even counts, ignoring missing figures", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([Number.NaN, 7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  it("says a change the way the measure reads", () => {
    expect(change(100, 450, true)).toBe("4.50× more");
    expect(change(100, 50, true)).toBe("2.00× less");
    expect(change(800, 200, false)).toBe("4.00× lower");
    expect(change(10, 20, false)).toBe("2.00× higher");
    expect(change(0, 5, false)).toBe("-");
  });

  it("judges the targets on the medians of the interleaved runs", () => {
    const section = (runs: VariantRun[]) =>
      renderSection({
        base: { dir: "/b", commit: "dab9444" },
        next: { dir: "/n", commit: "abc1234" },
        machine: "machine",
        emails: 10_000,
        users: 50,
        mixSeconds: 20,
        singleSeconds: 5,
        archiveEvery: 8,
        pairs: 2,
        results: [{ backend: "pglite", runs, profile: [], notes: [] }],
      });
    const rows = (text: string) => text.split("\n").filter((l) => l.startsWith("| "));
    const fast = section([
      run("base", 150, 900, 40),
      run("new", 700, 200, 8),
      run("base", 170, 800, 50),
      run("new", 640, 180, 12),
    ]);
    const rps = rows(fast).find((l) => l.includes("req/s"));
    expect(rps).toBe(
      "| mixed load +archive: req/s | new ≥ 4× base | 160 (150, 170) | 670 (700, 640) | 4.19× more | met |",
    );
    expect(rows(fast).find((l) => l.includes("+archive: p95"))).toContain("| met |");
    // List p95 of the new runs: 8 and 12, median 10, which is not under 10 ms.
    expect(rows(fast).find((l) => l.includes("list p95"))).toContain("**not met**");

    const slow = section([run("base", 150, 900, 40), run("new", 500, 300, 5)]);
    expect(rows(slow).find((l) => l.includes("req/s"))).toContain("**not met**");
    expect(rows(slow).find((l) => l.includes("list p95"))).toContain("| met |");
  });
});
