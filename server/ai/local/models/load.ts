import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/**
 * The analyzer's trained models as data (issue 40, decision 0059): one JSON file per model in this
 * folder, written by `bench/ai/train-<model>.ts` from labelled data and never edited by hand. Each
 * records what it was trained on, the command, the date and the sha256 of its weights. The server
 * loads every model once, at start (`loadAnalyzerModels`), and a missing or damaged file stops the
 * start naming the file and the command that rebuilds it. Elsewhere (tests, benches, training) a
 * model is read on its first use, so a training script runs even when its own model file is bad.
 */

export const MODEL_NAMES = ["complaint", "direct", "spam", "sentiment"] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(HERE, "..", "..", "..", "..");

/**
 * The folder the models are read from: this one, unless ANALYZER_MODELS_DIR names another (the
 * start-up test points it at broken copies; it is read while the analyzer's modules load, before
 * the config).
 */
export const MODELS_DIR = process.env.ANALYZER_MODELS_DIR || HERE;

export const trainCommand = (name: ModelName): string => `npx tsx bench/ai/train-${name}.ts`;

export class ModelFileError extends Error {
  constructor(file: string, name: ModelName, problem: string) {
    super(`Mailwise cannot start: analyzer model ${file} ${problem}; rebuild it with ${trainCommand(name)}`);
    this.name = "ModelFileError";
  }
}

export const modelFileSchema = z.strictObject({
  model: z.enum(MODEL_NAMES),
  /** What the weights are, in a sentence or two. */
  about: z.string().min(1),
  trainedOn: z.strictObject({
    /** The labelled data sets, as paths in this repository or package@version for shipped ones. */
    sets: z.array(z.string().min(1)).min(1),
    /** How many examples of each kind, in words. */
    examples: z.string().min(1),
  }),
  command: z.string().min(1),
  /** The day the weights last changed (a retrain that reproduces them keeps it). */
  date: z.iso.date(),
  /** sha256 of the payload in canonical form (`modelChecksum`). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "is not 64 lowercase hex digits"),
  bias: z.number().optional(),
  /** [word, weight] pairs in canonical order (UTF-16 code units), each word once. */
  weights: z.custom<Array<[string, number]>>((value) => notWeights(value) === null, {
    error: (issue) => `must be [word, number] pairs in code-unit order (${notWeights(issue.input)})`,
  }),
});

export type ModelFile = z.infer<typeof modelFileSchema>;

/**
 * What keeps a value from being a model's weights, or null. A loop rather than zod per entry:
 * zod took about 50 ms of CPU over the complaint model's 16,790 words, five times this loop.
 */
function notWeights(value: unknown): string | null {
  if (!Array.isArray(value)) return "not a list";
  let previous: string | null = null;
  for (const [i, pair] of value.entries()) {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      typeof pair[0] !== "string" ||
      typeof pair[1] !== "number"
    )
      return `entry ${i + 1} is ${JSON.stringify(pair)}`;
    if (previous !== null && !(previous < pair[0]))
      return `${JSON.stringify(pair[0])} comes after ${JSON.stringify(previous)}`;
    previous = pair[0];
  }
  return null;
}

/**
 * The checksum of a payload: sha256 of the JSON text of `{bias, weights}`, the weights as
 * [word, weight] pairs in code-unit order (bias left out when the model has none). The file's
 * layout and number spelling do not enter it; every word and weight does.
 */
export function modelChecksum(
  bias: number | undefined,
  pairs: ReadonlyArray<readonly [string, number]>,
): string {
  const canonical = JSON.stringify(bias === undefined ? { weights: pairs } : { bias, weights: pairs });
  return createHash("sha256").update(canonical).digest("hex");
}

export interface LoadedModel {
  /** The prior log-odds (0 for a model without one). */
  bias: number;
  weights: ReadonlyMap<string, number>;
}

export interface ModelShape {
  /** Whether the scorer adds a bias (the file must then have one, and must not otherwise). */
  bias: boolean;
  /** The exact words the scorer weighs (the sentiment features), when it is a fixed list. */
  words?: readonly string[];
}

/** Where a model file is, as a person should read it: from the repository root when inside it. */
export function modelFilePath(name: ModelName, dir: string = MODELS_DIR): string {
  const path = join(dir, `${name}.json`);
  const fromRoot = relative(ROOT, path);
  return fromRoot.startsWith("..") || isAbsolute(fromRoot) ? path : fromRoot;
}

/** Reads, validates and checks one model file; throws ModelFileError saying what is wrong with it. */
export function readModelFile(name: ModelName, dir: string = MODELS_DIR): ModelFile {
  const file = modelFilePath(name, dir);
  const fail = (problem: string): never => {
    throw new ModelFileError(file, name, problem);
  };
  let text = "";
  try {
    text = readFileSync(join(dir, `${name}.json`), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    fail(code === "ENOENT" ? "is missing" : `cannot be read (${code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    fail(`is not valid JSON (${(error as Error).message})`);
  }
  const parsed = modelFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.map(String).join(".") || "(top)"}: ${issue.message}`);
    return fail(`does not fit the model file schema (${issues.join("; ")})`);
  }
  const model = parsed.data;
  if (model.model !== name) fail(`holds the "${model.model}" model`);
  return model;
}

/** Loads a model for its scorer: the file read and checked, the weights in a Map. */
export function loadModel(name: ModelName, shape: ModelShape, dir: string = MODELS_DIR): LoadedModel {
  const model = readModelFile(name, dir);
  const fail = (problem: string): never => {
    throw new ModelFileError(modelFilePath(name, dir), name, problem);
  };
  if (shape.bias !== (model.bias !== undefined))
    fail(shape.bias ? "has no bias, which its scorer adds" : "has a bias, which its scorer has no use for");
  const pairs = model.weights;
  const sha256 = modelChecksum(model.bias, pairs);
  if (sha256 !== model.sha256)
    fail(`has weights that do not match its sha256 (recorded ${model.sha256}, weights give ${sha256})`);
  if (shape.words) {
    const expected = [...shape.words].sort().join(", ");
    const found = pairs.map(([word]) => word).join(", ");
    if (found !== expected) fail(`weighs ${found}, but the analyzer reads ${expected}`);
  }
  return { bias: model.bias ?? 0, weights: new Map(pairs) };
}

const declared = new Map<ModelName, { shape: ModelShape; loaded?: LoadedModel }>();

/** A scorer's model, declared when its module loads and read once: at start, or on first use. */
export function declareModel(name: ModelName, shape: ModelShape): () => LoadedModel {
  const entry: { shape: ModelShape; loaded?: LoadedModel } = { shape };
  declared.set(name, entry);
  return () => {
    entry.loaded ??= loadModel(name, shape);
    return entry.loaded;
  };
}

/** Reads every model now (the server's start, after the analyzer's modules have loaded). */
export function loadAnalyzerModels(): void {
  for (const name of MODEL_NAMES) {
    const entry = declared.get(name);
    if (!entry) throw new Error(`no scorer has declared the ${name} model: load the analyzer first`);
    entry.loaded ??= loadModel(name, entry.shape);
  }
}
