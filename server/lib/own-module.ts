import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The server runs as TypeScript under tsx (tests, `npm run dev`) or compiled to JavaScript in
 * dist/node (`npm start`, decision 0077). Code that starts one of our modules in another thread
 * or process names it through these helpers, so it gets the file of its own kind.
 */

/** True when `fromUrl` (a caller's import.meta.url) is a compiled module. */
export function isCompiled(fromUrl: string): boolean {
  return /\.[cm]?js$/.test(new URL(fromUrl).pathname);
}

/** The URL of a neighbouring module named by its TypeScript path ("./pglite-worker.ts"). */
export function ownModuleUrl(relativeTsPath: string, fromUrl: string): URL {
  const file = isCompiled(fromUrl) ? relativeTsPath.replace(/\.tsx?$/, ".js") : relativeTsPath;
  return new URL(file, fromUrl);
}

/**
 * Source for `new Worker(source, { eval: true })` that imports `moduleUrl`. Node 20 does not pass
 * the main thread's loader (tsx) on to workers, so a TypeScript module registers tsx first;
 * compiled JavaScript is imported as it is.
 */
export function workerBootstrap(moduleUrl: URL): string {
  const target = JSON.stringify(moduleUrl.href);
  if (isCompiled(moduleUrl.href)) return `import(${target});`;
  const tsxApi = pathToFileURL(
    path.join(
      path.dirname(createRequire(import.meta.url).resolve("tsx/package.json")),
      "dist/esm/api/index.mjs",
    ),
  ).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${target}); });`;
}
