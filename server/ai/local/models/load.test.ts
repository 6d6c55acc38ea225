import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import "../analyze.ts";
import { SENTIMENT_FEATURES } from "../sentiment.ts";
import {
  type LoadedModel,
  loadAnalyzerModels,
  loadModel,
  MODEL_NAMES,
  MODELS_DIR,
  type ModelName,
  type ModelShape,
  modelChecksum,
  modelFilePath,
  readModelFile,
} from "./load.ts";

const SHAPES: Record<ModelName, ModelShape> = {
  complaint: { bias: true },
  direct: { bias: false },
  spam: { bias: false },
  sentiment: { bias: true, words: SENTIMENT_FEATURES },
};

describe("the shipped model files", () => {
  it.each(MODEL_NAMES)("%s.json: its sha256 is its weights', and the loader accepts it", (name) => {
    const file = readModelFile(name);
    expect(file.sha256).toBe(modelChecksum(file.bias, file.weights));
    expect(file.command).toBe(`npx tsx bench/ai/train-${name}.ts`);
    expect(file.trainedOn.sets.length).toBeGreaterThan(0);
    const model: LoadedModel = loadModel(name, SHAPES[name]);
    expect(model.weights.size).toBe(file.weights.length);
    expect(model.bias).toBe(file.bias ?? 0);
  });

  it("are all read at start, each once", () => {
    expect(() => loadAnalyzerModels()).not.toThrow();
    expect(modelFilePath("spam")).toBe("server/ai/local/models/spam.json");
  });

  it("weigh what the scorers expect", () => {
    const complaint = loadModel("complaint", SHAPES.complaint);
    expect(complaint.weights.get("unacceptable")).toBeGreaterThan(0);
    const direct = loadModel("direct", SHAPES.direct);
    expect(direct.weights.get("invoice")).toBeGreaterThan(0);
    expect(direct.weights.get("mum")).toBeLessThan(0);
    const spam = loadModel("spam", SHAPES.spam);
    expect(spam.weights.get("s:free")).toBeGreaterThan(0);
    // The literals kept pairs because "then" is no property name; in JSON it is a plain key.
    expect(direct.weights.get("then")).toBe(-0.42);
  });
});

describe("a bad model file stops the start with a clear message", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(os.tmpdir(), "mailwise-models-"));
    for (const name of MODEL_NAMES) copyFileSync(join(MODELS_DIR, `${name}.json`), join(dir, `${name}.json`));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const edit = (name: ModelName, change: (text: string) => string) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, change(readFileSync(path, "utf8")));
  };
  const failure = (name: ModelName) => {
    try {
      loadModel(name, SHAPES[name], dir);
    } catch (error) {
      expect((error as Error).name).toBe("ModelFileError");
      return (error as Error).message;
    }
    throw new Error(`${name} loaded`);
  };

  it("accepts the copies as they are", () => {
    for (const name of MODEL_NAMES)
      expect(loadModel(name, SHAPES[name], dir).weights.size).toBeGreaterThan(0);
  });

  it("missing", () => {
    unlinkSync(join(dir, "spam.json"));
    expect(failure("spam")).toBe(
      `Mailwise cannot start: analyzer model ${join(dir, "spam.json")} is missing; ` +
        "rebuild it with npx tsx bench/ai/train-spam.ts",
    );
  });

  it("not JSON", () => {
    edit("direct", (text) => text.slice(0, 5000));
    expect(failure("direct")).toMatch(
      /^Mailwise cannot start: analyzer model \S+direct\.json is not valid JSON \(.+\); rebuild it with npx tsx bench\/ai\/train-direct\.ts$/,
    );
  });

  it.each([
    [
      "a weight that is no number",
      (t: string) => t.replace('["a", 1.38]', '["a", "1.38"]'),
      /weights: must be \[word, number\] pairs in code-unit order \(entry \d+ is \["a","1\.38"\]\)/,
    ],
    ["no checksum", (t: string) => t.replace(/ {2}"sha256": .*\n/, ""), /sha256: /],
    ["a field it does not know", (t: string) => t.replace('"model":', '"extra": 1, "model":'), /extra/],
    ["a date that is no date", (t: string) => t.replace(/"date": "[^"]*"/, '"date": "last week"'), /date: /],
  ])("does not fit the schema: %s", (_, change, detail) => {
    edit("complaint", change);
    const message = failure("complaint");
    expect(message).toMatch(
      /^Mailwise cannot start: analyzer model \S+complaint\.json does not fit the model file schema/,
    );
    expect(message).toMatch(detail);
    expect(message).toMatch(/; rebuild it with npx tsx bench\/ai\/train-complaint\.ts$/);
  });

  it("words out of order or twice: the file says which", () => {
    edit("spam", (t) => {
      const lines = t.split("\n");
      const first = lines.indexOf('  "weights": [') + 1;
      lines.splice(first, 2, lines[first + 1] ?? "", lines[first] ?? "");
      return lines.join("\n");
    });
    expect(failure("spam")).toMatch(
      /weights: must be \[word, number\] pairs in code-unit order \("\S+" comes after "\S+"\)/,
    );
    edit("sentiment", (t) => t.replace('    ["wink", 1.038]', '    ["vaderPos", 1.038]'));
    expect(failure("sentiment")).toMatch(/\("vaderPos" comes after "vaderPos"\)/);
  });

  it("weights changed by hand: the checksum no longer matches", () => {
    edit("complaint", (t) => t.replace('["a", 1.38]', '["a", 1.39]'));
    expect(failure("complaint")).toMatch(
      /complaint\.json has weights that do not match its sha256 \(recorded [0-9a-f]{64}, weights give [0-9a-f]{64}\); rebuild it/,
    );
  });

  it("another model's file, a bias where none is used, features the analyzer does not read", () => {
    copyFileSync(join(dir, "direct.json"), join(dir, "spam.json"));
    expect(failure("spam")).toMatch(/spam\.json holds the "direct" model/);
    expect(() => loadModel("complaint", { bias: false }, dir)).toThrow(
      /has a bias, which its scorer has no use/,
    );
    expect(() => loadModel("direct", { bias: true }, dir)).toThrow(/has no bias, which its scorer adds/);
    expect(() => loadModel("sentiment", { bias: true, words: ["wink"] }, dir)).toThrow(
      /weighs afinn, .*, but the analyzer reads wink; rebuild it/,
    );
  });

  it("the server's start shows the message, no stack trace, and exits 1", async () => {
    unlinkSync(join(dir, "spam.json"));
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts", "--role=web"], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", DEMO_MODE: "off", ANALYZER_MODELS_DIR: dir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 40_000);
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    clearTimeout(timer);
    expect(output.trim()).toBe(
      `Mailwise cannot start: analyzer model ${join(dir, "spam.json")} is missing; ` +
        "rebuild it with npx tsx bench/ai/train-spam.ts",
    );
    expect(code).toBe(1);
  }, 60_000);
});
