// `npm start` (decision 0077). Plain JavaScript run by bare `node`: when the web app and the
// compiled server are current (their inputs hash to the stamps of the last build), the server is
// imported into this very process, with no TypeScript loader and no second process. Only when
// something must be built does it run the TypeScript build (scripts/build/prepare.ts, under tsx)
// first. Arguments (--role=all) are the server's.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isCurrent, SERVER_ENTRY, serverOutput, webOutput } from "./input-hash.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const stale = [webOutput(), serverOutput].filter((output) => !isCurrent(ROOT, output));
if (stale.length > 0) {
  console.log(
    `Building: ${stale.map((output) => output.name).join(" and ")} (inputs changed since the last build)`,
  );
  const build = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "scripts/build/prepare.ts")],
    {
      cwd: ROOT,
      stdio: "inherit",
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(path.join(ROOT, SERVER_ENTRY)).href);
