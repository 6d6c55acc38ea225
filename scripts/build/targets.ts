import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import type { BuildTarget } from "./build-stamp.ts";
import { compileServer } from "./compile-server.ts";
import { SERVER_OUT_DIR, serverOutput, webOutput } from "./input-hash.mjs";

export { SERVER_ENTRY } from "./input-hash.mjs";

/** Vite's build, as `vite build` runs it, in a process of its own (it exits when done). */
function viteBuild(root: string): Promise<void> {
  // vite's package exports do not list its bin, so it is found beside its package.json.
  const viteBin = path.join(
    path.dirname(createRequire(`${root}/package.json`).resolve("vite/package.json")),
    "bin/vite.js",
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [viteBin, "build"], { cwd: root, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`vite build failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/** The web app, built by Vite into dist/web. */
export function webTarget(root: string, env: NodeJS.ProcessEnv = process.env): BuildTarget {
  return { ...webOutput(env), build: () => viteBuild(root) };
}

/** The server compiled to JavaScript, so that it starts without a TypeScript loader. */
export function serverTarget(root: string): BuildTarget {
  return { ...serverOutput, build: () => compileServer(root, SERVER_OUT_DIR) };
}
