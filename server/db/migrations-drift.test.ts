import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const run = promisify(execFile);
const migrations = path.resolve("server/db/migrations");
let tmp = "";

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

it("the committed migrations match the schema (drizzle-kit generates nothing new)", async () => {
  // drizzle-kit treats `out` as relative to the project, so the copy lives in the ignored .tmp folder.
  await mkdir(".tmp", { recursive: true });
  tmp = await mkdtemp(".tmp/drift-");
  await cp(migrations, tmp, { recursive: true });
  const before = (await readdir(tmp)).sort();
  const { stdout, stderr } = await run("npx", ["drizzle-kit", "generate"], {
    env: { ...process.env, DRIZZLE_OUT: tmp },
    timeout: 60_000,
  });
  const after = (await readdir(tmp)).sort();
  // drizzle-kit exits 0 even when it fails, so also require its "nothing to do" line.
  expect(`${stdout}${stderr}`).toContain("No schema changes");
  expect(after, `schema.ts changed without a migration; run npm run db:generate\n${stdout}`).toEqual(before);
}, 90_000);
