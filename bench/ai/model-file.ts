import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  MODELS_DIR,
  type ModelFile,
  type ModelName,
  modelChecksum,
  modelFileSchema,
  trainCommand,
} from "../../server/ai/local/models/load.ts";

/**
 * Writes a trained model as server/ai/local/models/<model>.json (decision 0059), so that training
 * the same data again gives the same bytes: weights one per line in code-unit order, and the date
 * kept from the file already there when the weights are the same (a new date only when they change).
 */

export interface TrainedModel {
  model: ModelName;
  about: string;
  trainedOn: ModelFile["trainedOn"];
  bias?: number;
  weights: Iterable<readonly [string, number]>;
}

function canonicalPairs(trained: TrainedModel): Array<readonly [string, number]> {
  const pairs = [...trained.weights].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (let i = 1; i < pairs.length; i++)
    if (pairs[i]?.[0] === pairs[i - 1]?.[0]) throw new Error(`${trained.model}: "${pairs[i]?.[0]}" twice`);
  return pairs;
}

/** The file's text; `date` is the day the weights last changed. */
export function modelFileText(trained: TrainedModel, date: string): string {
  const pairs = canonicalPairs(trained);
  const head = {
    model: trained.model,
    about: trained.about,
    trainedOn: trained.trainedOn,
    command: trainCommand(trained.model),
    date,
    sha256: modelChecksum(trained.bias, pairs),
    ...(trained.bias === undefined ? {} : { bias: trained.bias }),
  };
  // One pair a line, so a retrain's diff shows the words that moved.
  const lines = pairs.map(([word, weight]) => `    [${JSON.stringify(word)}, ${JSON.stringify(weight)}]`);
  // Laid out as biome formats JSON (npm run lint checks these files): a list that fits in a line
  // of 110 characters on one line.
  const sets = `    "sets": [${trained.trainedOn.sets.map((set) => JSON.stringify(set)).join(", ")}],`;
  const headText = JSON.stringify(head, null, 2)
    .slice(0, -2)
    .replace(/^ {4}"sets": \[\n[^\]]*\n {4}\],$/m, (list) => (sets.length <= 110 ? sets : list));
  const text = `${headText},\n  "weights": [\n${lines.join(",\n")}\n  ]\n}\n`;
  modelFileSchema.parse(JSON.parse(text));
  return text;
}

/**
 * Writes the model into `dir` (the analyzer's models folder unless told otherwise). Returns the
 * path and whether the weights changed.
 */
export function writeModelFile(
  trained: TrainedModel,
  dir: string = MODELS_DIR,
  today: Date = new Date(),
): { path: string; changed: boolean } {
  const path = join(dir, `${trained.model}.json`);
  const sha256 = modelChecksum(trained.bias, canonicalPairs(trained));
  const kept = existsSync(path) ? recordedDate(readFileSync(path, "utf8"), sha256) : null;
  writeFileSync(path, modelFileText(trained, kept ?? today.toISOString().slice(0, 10)));
  return { path, changed: kept === null };
}

/** The date a file records when it holds the same weights, else null (also for a damaged file). */
function recordedDate(text: string, sha256: string): string | null {
  try {
    const before = modelFileSchema.safeParse(JSON.parse(text));
    return before.success && before.data.sha256 === sha256 ? before.data.date : null;
  } catch {
    return null;
  }
}

/** A shipped data set as package@version, so the file says which release the model saw. */
export function packageSet(name: string, inside: string): string {
  const require = createRequire(import.meta.url);
  const { version } = require(`${name}/package.json`) as { version: string };
  return `${name}@${version}${inside ? `/${inside}` : ""}`;
}
