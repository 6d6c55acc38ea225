import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BuildTarget, ensureBuilt } from "./build-stamp.ts";
import { hashInputs, type InputSet, isCurrent } from "./input-hash.mjs";

let root: string;

function write(relative: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), text);
}

const inputs: InputSet = { paths: ["src", "config.json"], exclude: (f) => f.endsWith(".test.ts") };

/** A target whose build writes out/index.txt and counts its runs; `fail` makes the next run throw. */
function countingTarget(): BuildTarget & { runs: number; fail: boolean } {
  const target = {
    name: "sample",
    inputs,
    stampFile: "out.inputs-sha256",
    outputFile: "out/index.txt",
    runs: 0,
    fail: false,
    async build() {
      target.runs++;
      if (target.fail) throw new Error("compile error");
      write("out/index.txt", `build ${target.runs}`);
    },
  };
  return target;
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "build-stamp-"));
  write("src/a.ts", "export const a = 1;\n");
  write("src/nested/b.ts", "export const b = 2;\n");
  write("src/a.test.ts", "test\n");
  write("config.json", "{}\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("hashInputs", () => {
  it("is stable for unchanged inputs and changes with a file's content, a new file or a setting", () => {
    const first = hashInputs(root, inputs);
    expect(hashInputs(root, inputs)).toBe(first);

    write("src/nested/b.ts", "export const b = 3;\n");
    const edited = hashInputs(root, inputs);
    expect(edited).not.toBe(first);

    write("src/c.ts", "export {};\n");
    const added = hashInputs(root, inputs);
    expect(added).not.toBe(edited);

    expect(hashInputs(root, { ...inputs, extra: { VITE_FLAG: "1" } })).not.toBe(added);
  });

  it("ignores excluded files and output folders", () => {
    const before = hashInputs(root, inputs);
    write("src/a.test.ts", "a changed test\n");
    write("src/node_modules/x/index.js", "installed\n");
    write("src/dist/a.js", "output\n");
    expect(hashInputs(root, inputs)).toBe(before);
  });

  it("tells a renamed file from the same content under its old name", () => {
    const before = hashInputs(root, inputs);
    rmSync(path.join(root, "src/a.ts"));
    write("src/z.ts", "export const a = 1;\n");
    expect(hashInputs(root, inputs)).not.toBe(before);
  });
});

describe("ensureBuilt", () => {
  it("builds once, skips while the inputs are unchanged, and rebuilds after a source changes", async () => {
    const target = countingTarget();
    expect((await ensureBuilt(root, target)).built).toBe(true);
    expect(target.runs).toBe(1);
    expect(isCurrent(root, target)).toBe(true);

    expect((await ensureBuilt(root, target)).built).toBe(false);
    expect(target.runs).toBe(1);

    write("src/a.ts", "export const a = 2;\n");
    expect(isCurrent(root, target)).toBe(false);
    expect((await ensureBuilt(root, target)).built).toBe(true);
    expect(target.runs).toBe(2);
  });

  it("rebuilds when the output is gone though the stamp matches, and when forced", async () => {
    const target = countingTarget();
    await ensureBuilt(root, target);
    rmSync(path.join(root, "out"), { recursive: true });
    expect((await ensureBuilt(root, target)).built).toBe(true);
    expect((await ensureBuilt(root, target, { force: true })).built).toBe(true);
    expect(target.runs).toBe(3);
  });

  it("never takes a failed build as current", async () => {
    const target = countingTarget();
    await ensureBuilt(root, target);
    write("src/a.ts", "syntax error(\n");
    target.fail = true;
    await expect(ensureBuilt(root, target)).rejects.toThrow("compile error");
    // The old output is still there, but it was not built from these inputs: the next start retries.
    expect(isCurrent(root, target)).toBe(false);
    target.fail = false;
    expect((await ensureBuilt(root, target)).built).toBe(true);
    expect(target.runs).toBe(3);
  });
});
