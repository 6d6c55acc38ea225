import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type BuildOutput, hashInputs, isCurrent } from "./input-hash.mjs";

export interface BuildTarget extends BuildOutput {
  build(): Promise<void>;
}

export interface EnsureResult {
  built: boolean;
  hash: string;
  ms: number;
}

/**
 * Builds the target unless its stamp matches the current inputs. The stamp is removed before a
 * build and written only after it succeeds, so a failed or interrupted build is never taken as
 * current. Inputs are hashed before building: an edit made during the build triggers the next one.
 */
export async function ensureBuilt(
  root: string,
  target: BuildTarget,
  options: { force?: boolean } = {},
): Promise<EnsureResult> {
  const started = performance.now();
  const hash = hashInputs(root, target.inputs);
  if (!options.force && isCurrent(root, target, hash))
    return { built: false, hash, ms: performance.now() - started };
  const stampFile = path.resolve(root, target.stampFile);
  rmSync(stampFile, { force: true });
  await target.build();
  mkdirSync(path.dirname(stampFile), { recursive: true });
  const temporary = `${stampFile}.${process.pid}`;
  writeFileSync(temporary, `${hash}\n`);
  renameSync(temporary, stampFile);
  return { built: true, hash, ms: performance.now() - started };
}
