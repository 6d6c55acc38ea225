import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  areaOf,
  type CpuProfile,
  monotonicUs,
  readProfile,
  summariseProfile,
} from "./cpu-profile-summary.ts";

const frame = (functionName: string, url = "", lineNumber = 0) => ({ functionName, url, lineNumber });

/** root -> idle, a drizzle function, one of ours, the GC; samples say how long each ran. */
function syntheticProfile(): CpuProfile {
  return {
    nodes: [
      { id: 1, callFrame: frame("(root)") },
      { id: 2, callFrame: frame("(idle)") },
      {
        id: 3,
        callFrame: frame("buildQuery", "file:///app/node_modules/drizzle-orm/pg-core/dialect.js", 9),
      },
      { id: 4, callFrame: frame("listEmails", "file:///app/server/mail/email-lister.ts", 41) },
      { id: 5, callFrame: frame("(garbage collector)") },
    ],
    startTime: 0,
    endTime: 10_000,
    // Each sample lasts until the next: idle 4 ms, drizzle 3 ms, ours 2 ms, GC 1 ms (the last sample's length is unknown: 0).
    samples: [2, 3, 4, 5, 2],
    timeDeltas: [0, 4_000, 3_000, 2_000, 1_000],
  };
}

describe("summariseProfile", () => {
  it("ranks self time and leaves idle out of the shares", () => {
    const summary = summariseProfile(syntheticProfile(), 5);
    expect(summary.totalMs).toBe(10);
    expect(summary.busyMs).toBe(6);
    expect(summary.functions.map((f) => [f.name, f.ms])).toEqual([
      ["buildQuery (drizzle-orm/pg-core/dialect.js:10)", 3],
      ["listEmails (server/mail/email-lister.ts:42)", 2],
      ["(garbage collector)", 1],
      ["(root)", 0],
    ]);
    expect(summary.functions[0]?.share).toBeCloseTo(0.5);
    expect(summary.areas.map((a) => a.name).slice(0, 3)).toEqual([
      "drizzle-orm",
      "server/mail",
      "(garbage collector)",
    ]);
  });

  it("keeps only the samples inside a window", () => {
    // Samples are stamped at 0 (idle), 4 ms (drizzle), 7 ms (ours), 9 ms (GC), 10 ms.
    const summary = summariseProfile(syntheticProfile(), 5, { fromUs: 3_000, toUs: 8_000 });
    expect(summary.totalMs).toBe(5);
    expect(summary.functions.filter((f) => f.ms > 0).map((f) => f.name)).toEqual([
      "buildQuery (drizzle-orm/pg-core/dialect.js:10)",
      "listEmails (server/mail/email-lister.ts:42)",
    ]);
  });

  it("falls back to hit counts when the profile has no samples", () => {
    const profile = syntheticProfile();
    delete profile.samples;
    delete profile.timeDeltas;
    profile.nodes[2] = { ...(profile.nodes[2] as CpuProfile["nodes"][number]), hitCount: 3 };
    profile.nodes[3] = { ...(profile.nodes[3] as CpuProfile["nodes"][number]), hitCount: 1 };
    const summary = summariseProfile(profile, 1);
    expect(summary.functions).toHaveLength(1);
    expect(summary.functions[0]?.name).toContain("buildQuery");
    expect(summary.functions[0]?.share).toBeCloseTo(0.75);
  });

  it("names areas by package, Node module and our folders", () => {
    expect(areaOf(frame("f", "file:///x/node_modules/@fastify/etag/index.js"))).toBe("@fastify/etag");
    expect(areaOf(frame("f", "node:zlib"))).toBe("node:zlib");
    expect(areaOf(frame("f", "file:///work/wt/e/server/db/client.ts"))).toBe("server/db");
    expect(areaOf(frame("f", "file:///work/wt/e/server/app.ts"))).toBe("server");
    expect(areaOf(frame("(program)"))).toBe("(program)");
    expect(areaOf(frame("postMessage"))).toBe("postMessage (native)");
    expect(areaOf(frame("wasm-function[13]", "wasm://wasm/022a9842"))).toBe("wasm");
  });

  it("finds, in a real node --cpu-prof profile, what burned the CPU in a window this process timed", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cpu-prof-test-"));
    try {
      // burnFirst, then a line on stdout, then burnSecond: the window is from that line to the exit.
      const loop = (name: string, ms: number) =>
        `function ${name}(){let x=0;const end=Date.now()+${ms};while(Date.now()<end)x+=Math.sqrt(x+1);return x}`;
      const script = `${loop("burnFirst", 400)}${loop("burnSecond", 300)}burnFirst();setTimeout(()=>{console.log('second');setTimeout(burnSecond,50)},50)`;
      const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, "-e", script]);
      const fromUs = await new Promise<number>((resolve) =>
        child.stdout.once("data", () => resolve(monotonicUs())),
      );
      await new Promise((resolve) => child.once("exit", resolve));
      const toUs = monotonicUs();
      const [file] = await readdir(dir);
      if (!file) throw new Error("node wrote no profile");
      const profile = await readProfile(path.join(dir, file));
      // Self time of one function in a summary (0 when it is not among the top entries).
      const ms = (s: ReturnType<typeof summariseProfile>, name: string) =>
        s.functions.find((f) => f.name.startsWith(`${name} `))?.ms ?? 0;

      const whole = summariseProfile(profile, 10);
      expect(whole.functions[0]?.name).toMatch(/^burnFirst /);
      expect(ms(whole, "burnSecond")).toBeGreaterThan(100);
      expect(whole.totalMs - whole.busyMs).toBeGreaterThan(40); // the timers' waits are idle

      const windowed = summariseProfile(profile, 10, { fromUs, toUs });
      expect(windowed.functions[0]?.name).toMatch(/^burnSecond /);
      expect(ms(windowed, "burnSecond")).toBeGreaterThan(100);
      expect(ms(windowed, "burnFirst")).toBeLessThan(20);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
