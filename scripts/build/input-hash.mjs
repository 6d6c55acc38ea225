// Plain JavaScript on purpose: `npm start` runs this with bare `node` (scripts/build/start.mjs) to
// decide whether anything needs building, without paying for a TypeScript loader (decision 0077).
// Types: input-hash.d.mts.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Folders never read as build inputs: installed packages, build output, scratch data. */
const SKIPPED_DIRS = new Set(["node_modules", "dist", "data", ".tmp", ".git"]);

/** @param {string} root @param {string} relative @param {string[]} out */
function listFiles(root, relative, out) {
  let stat;
  try {
    stat = statSync(path.join(root, relative));
  } catch {
    return; // A missing input hashes as absent, so creating it later changes the hash.
  }
  if (stat.isFile()) {
    out.push(relative);
    return;
  }
  if (!stat.isDirectory()) return;
  for (const entry of readdirSync(path.join(root, relative))) {
    if (SKIPPED_DIRS.has(entry)) continue;
    listFiles(root, path.posix.join(relative, entry), out);
  }
}

/** @type {typeof import("./input-hash.d.mts").inputFiles} */
export function inputFiles(root, inputs) {
  /** @type {string[]} */
  const files = [];
  for (const p of inputs.paths) listFiles(root, p, files);
  return [...new Set(files)].filter((f) => !inputs.exclude?.(f)).sort();
}

/** @type {typeof import("./input-hash.d.mts").hashInputs} */
export function hashInputs(root, inputs) {
  // Contents rather than modification times: a checkout, a branch switch or a copy changes times
  // without changing code.
  const hash = createHash("sha256");
  for (const file of inputFiles(root, inputs)) {
    hash.update(`file\0${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  for (const [key, value] of Object.entries(inputs.extra ?? {}).sort(([a], [b]) => a.localeCompare(b)))
    hash.update(`extra\0${key}\0${value}\0`);
  return hash.digest("hex");
}

/** @param {string} file */
function readStamp(file) {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** @type {typeof import("./input-hash.d.mts").isCurrent} */
export function isCurrent(root, target, hash = hashInputs(root, target.inputs)) {
  return (
    readStamp(path.resolve(root, target.stampFile)) === hash &&
    existsSync(path.resolve(root, target.outputFile))
  );
}

const isTest = (/** @type {string} */ file) => /\.test\.tsx?$/.test(file);

/** Where the compiled server goes (gitignored with the rest of dist/); `npm start` runs its main.js. */
export const SERVER_OUT_DIR = "dist/node";
export const SERVER_ENTRY = `${SERVER_OUT_DIR}/server/main.js`;
/** The server and what it imports of ours: the contract, and the emulator that demo mode starts. */
export const SERVER_SOURCE_DIRS = ["server", "contract", "emulator"];

/** @type {typeof import("./input-hash.d.mts").serverOutput} */
export const serverOutput = {
  name: "server",
  inputs: {
    paths: [
      ...SERVER_SOURCE_DIRS,
      "package-lock.json",
      "tsconfig.base.json",
      "tsconfig.json",
      "scripts/build",
    ],
    exclude: isTest,
  },
  stampFile: "dist/node.inputs-sha256",
  outputFile: SERVER_ENTRY,
};

/** @type {typeof import("./input-hash.d.mts").webOutput} */
export function webOutput(env = process.env) {
  // Vite writes VITE_* variables into the bundle, so they are inputs as much as the files are.
  /** @type {Record<string, string>} */
  const viteEnv = {};
  for (const [key, value] of Object.entries(env))
    if (key.startsWith("VITE_") && value !== undefined) viteEnv[key] = value;
  return {
    name: "web app",
    inputs: {
      paths: [
        "web",
        "contract",
        "vite.config.ts",
        "package-lock.json",
        "tsconfig.base.json",
        "scripts/build",
      ],
      exclude: isTest,
      extra: viteEnv,
    },
    stampFile: "dist/web.inputs-sha256",
    outputFile: "dist/web/index.html",
  };
}
