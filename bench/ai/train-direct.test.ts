import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadModel, MODEL_NAMES, modelChecksum, readModelFile } from "../../server/ai/local/models/load.ts";
import { modelFileText, writeModelFile } from "./model-file.ts";
import { directModel, example } from "./train-direct.ts";
import type { DirectMail } from "./trust-data.ts";

/**
 * Training cannot rot (issue 40): the work-or-personal model is trained by the real code path
 * (features, words and pairs, naive Bayes, the model file) on six fixture mails, and the file it
 * writes is read back by the analyzer's loader.
 */

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "direct-mail-small.json"), "utf8"),
) as {
  dev: DirectMail[];
};
const sets = (mails: DirectMail[]) => [{ name: "direct-mail-small.json", examples: mails.map(example) }];

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("training the work-or-personal model on a fixture", () => {
  it("writes a file the loader accepts, with its checksum and the signs the mails give", () => {
    dir = mkdtempSync(join(os.tmpdir(), "mailwise-train-"));
    const { path, changed } = writeModelFile(
      directModel(sets(fixture.dev)),
      dir,
      new Date("2026-01-02T10:00:00Z"),
    );
    expect(changed).toBe(true);
    expect(path).toBe(join(dir, "direct.json"));
    const file = readModelFile("direct", dir);
    expect(file).toMatchObject({
      model: "direct",
      command: "npx tsx bench/ai/train-direct.ts",
      date: "2026-01-02",
      trainedOn: {
        sets: ["bench/ai/labels/direct-mail-small.json"],
        examples: expect.stringMatching(/^3 work and 3 personal mails/),
      },
    });
    expect(file.bias).toBeUndefined();
    expect(file.sha256).toBe(modelChecksum(undefined, file.weights));
    const model = loadModel("direct", { bias: false }, dir);
    // Words of two or more mails only: "invoice" (three work mails), "mum" and "kids" (three personal).
    expect(model.weights.get("invoice")).toBeGreaterThan(0);
    expect(model.weights.get("delivery")).toBeGreaterThan(0);
    expect(model.weights.get("mum")).toBeLessThan(0);
    expect(model.weights.get("kids")).toBeLessThan(0);
    expect(model.weights.has("flowers")).toBe(false);
  });

  it("writes the same bytes again from the same mails, keeping the date; new weights get a new date", () => {
    dir = mkdtempSync(join(os.tmpdir(), "mailwise-train-"));
    const first = writeModelFile(directModel(sets(fixture.dev)), dir, new Date("2026-01-02T10:00:00Z"));
    const bytes = readFileSync(first.path, "utf8");
    const again = writeModelFile(directModel(sets(fixture.dev)), dir, new Date("2026-03-04T10:00:00Z"));
    expect(again.changed).toBe(false);
    expect(readFileSync(again.path, "utf8")).toBe(bytes);
    const fewer = writeModelFile(
      directModel(sets(fixture.dev.slice(1))),
      dir,
      new Date("2026-03-04T10:00:00Z"),
    );
    expect(fewer.changed).toBe(true);
    expect(readModelFile("direct", dir).date).toBe("2026-03-04");
  });
});

describe("the shipped model files", () => {
  it.each(MODEL_NAMES)("%s.json is laid out exactly as training writes it", (name) => {
    const file = readModelFile(name);
    const text = readFileSync(
      join(import.meta.dirname, "..", "..", "server", "ai", "local", "models", `${name}.json`),
      "utf8",
    );
    const { sha256: _, date, command: __, ...rest } = file;
    expect(modelFileText(rest, date)).toBe(text);
  });
});
