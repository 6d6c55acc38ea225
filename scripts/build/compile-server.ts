import { copyFileSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type * as Esbuild from "esbuild";
import { inputFiles, SERVER_SOURCE_DIRS } from "./input-hash.mjs";

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/**
 * esbuild comes with tsx, which the server needs anyway: resolved through tsx so that it is found
 * however npm laid out node_modules, without a dependency of its own to keep in step.
 */
async function loadEsbuild(): Promise<typeof Esbuild> {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"));
  const module = (await import(fromTsx.resolve("esbuild"))) as typeof Esbuild & { default?: typeof Esbuild };
  return module.default ?? module;
}

/**
 * Every relative import stays an import (one output file per source file, so paths built from
 * import.meta.url keep pointing at the same neighbours), with `.ts` rewritten to `.js`; packages
 * stay imports of node_modules.
 */
const keepImports: Esbuild.Plugin = {
  name: "keep-imports",
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      if (args.path.startsWith(".")) return { path: args.path.replace(/\.tsx?$/, ".js"), external: true };
      return { path: args.path, external: true };
    });
  },
};

/**
 * Compiles the server's TypeScript to JavaScript under `outDir`, mirroring the source tree
 * (dist/node/server/main.js), and copies the other files the server reads beside its modules
 * (migrations, rule tables, model files). Types are not checked here: `npm run typecheck` does that.
 * The output is written to a fresh folder and moved into place, so a server starting meanwhile
 * sees the old build or the new one, never half of one.
 */
export async function compileServer(root: string, outDir: string): Promise<void> {
  const esbuild = await loadEsbuild();
  const sources = inputFiles(root, { paths: SERVER_SOURCE_DIRS, exclude: isTest });
  const target = path.resolve(root, outDir);
  const staging = `${target}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: sources.filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts")),
      outbase: ".",
      outdir: staging,
      bundle: true,
      plugins: [keepImports],
      platform: "node",
      format: "esm",
      target: "node20",
      sourcemap: "linked",
      // The maps point at the sources in the checkout instead of carrying a copy of them.
      sourcesContent: false,
      // The server's code names no environment at build time; keep process.env as it is.
      logLevel: "warning",
    });
    if (result.errors.length > 0) throw new Error(`esbuild reported ${result.errors.length} errors`);
    for (const file of sources.filter((f) => !/\.tsx?$/.test(f))) {
      mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      copyFileSync(path.join(root, file), path.join(staging, file));
    }
    const previous = `${target}.previous-${process.pid}`;
    try {
      renameSync(target, previous);
    } catch {
      // No previous build.
    }
    renameSync(staging, target);
    rmSync(previous, { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
