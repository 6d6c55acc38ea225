/**
 * `npm start` runs this before the compiled server: it rebuilds the web app and recompiles the
 * server only when their inputs changed since the last build (decision 0077). `--force` rebuilds
 * both (`npm run build`); `--only=web|server` limits it to one.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type BuildTarget, ensureBuilt } from "./build-stamp.ts";
import { serverTarget, webTarget } from "./targets.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const { values } = parseArgs({
  options: { force: { type: "boolean", default: false }, only: { type: "string" } },
});
const targets: BuildTarget[] = [];
if (values.only === undefined || values.only === "web") targets.push(webTarget(ROOT));
if (values.only === undefined || values.only === "server") targets.push(serverTarget(ROOT));
if (targets.length === 0) {
  console.error(`--only must be web or server (got ${values.only})`);
  process.exit(2);
}

// Both at once: on a fresh checkout the server compiles while Vite builds the web app.
const results = await Promise.allSettled(
  targets.map((target) => ensureBuilt(ROOT, target, { force: values.force })),
);
let failed = false;
results.forEach((result, i) => {
  const name = targets[i]?.name ?? "";
  if (result.status === "rejected") {
    const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
    console.error(`Could not build the ${name}: ${reason}`);
    failed = true;
    return;
  }
  const { built, hash, ms } = result.value;
  console.log(
    `${name} ${built ? "built" : "is current, not rebuilt"} (inputs ${hash.slice(0, 12)}, ${Math.round(ms)} ms)`,
  );
});
if (failed) process.exit(1);
