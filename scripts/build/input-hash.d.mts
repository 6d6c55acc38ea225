/** Types of input-hash.mjs (plain JavaScript so that `npm start` needs no TypeScript loader). */

export interface InputSet {
  /** Files and folders relative to the root; a folder stands for every file below it. */
  paths: readonly string[];
  /** Files left out (tests, say): a change to them cannot change the output. */
  exclude?: (relativePath: string) => boolean;
  /** Settings that change the output without being files (VITE_* variables, say). */
  extra?: Readonly<Record<string, string>>;
}

/** A build output and what it is made from. */
export interface BuildOutput {
  /** Shown in the progress lines ("web app", "server"). */
  name: string;
  inputs: InputSet;
  /** Where the hash of the inputs of the last good build is kept, beside the output. */
  stampFile: string;
  /** A file the build produces: if it is gone, the stamp alone does not make the output current. */
  outputFile: string;
}

/** The files an input set stands for, sorted so the hash does not depend on directory order. */
export function inputFiles(root: string, inputs: InputSet): string[];
/** A SHA-256 over the inputs' names and contents (and the extra settings). */
export function hashInputs(root: string, inputs: InputSet): string;
/** True when the output exists and was built from exactly these inputs. */
export function isCurrent(root: string, target: BuildOutput, hash?: string): boolean;

export const SERVER_OUT_DIR: string;
export const SERVER_ENTRY: string;
export const SERVER_SOURCE_DIRS: readonly string[];
/** The server compiled to JavaScript, so that it starts without a TypeScript loader. */
export const serverOutput: BuildOutput;
/** The web app: everything Vite reads to build dist/web. */
export function webOutput(env?: NodeJS.ProcessEnv): BuildOutput;
