import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { restrictDataDir } from "./data-dir-permissions.ts";

const modeOf = async (p: string) => (await stat(p)).mode & 0o777;

describe("DATA_DIR permissions (issue 13.5)", () => {
  const made: string[] = [];
  afterAll(async () => {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  });

  it("takes group and other access off an existing world-readable data folder", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "mailwise-perm-"));
    made.push(root);
    const dataDir = path.join(root, "data");
    await mkdir(path.join(dataDir, "pglite", "base"), { recursive: true });
    await writeFile(path.join(dataDir, "pglite", "base", "16384"), "mail body");
    await writeFile(path.join(dataDir, "secret.key"), "k", { mode: 0o600 });
    await writeFile(path.join(dataDir, "tool"), "#!/bin/sh", { mode: 0o755 });
    for (const d of [dataDir, path.join(dataDir, "pglite"), path.join(dataDir, "pglite", "base")])
      await chmod(d, 0o755);
    await chmod(path.join(dataDir, "pglite", "base", "16384"), 0o644);
    const outside = path.join(root, "outside.txt");
    await writeFile(outside, "not ours", { mode: 0o644 });
    await symlink(outside, path.join(dataDir, "link"));

    // Three folders, the mail file and the executable; the key was private already.
    expect(await restrictDataDir(dataDir)).toBe(5);
    for (const d of [dataDir, path.join(dataDir, "pglite"), path.join(dataDir, "pglite", "base")])
      expect(await modeOf(d)).toBe(0o700);
    expect(await modeOf(path.join(dataDir, "pglite", "base", "16384"))).toBe(0o600);
    expect(await modeOf(path.join(dataDir, "secret.key"))).toBe(0o600);
    expect(await modeOf(path.join(dataDir, "tool"))).toBe(0o700);
    // A link is not followed out of the folder.
    expect(await modeOf(outside)).toBe(0o644);
    // Nothing left to change the next time.
    expect(await restrictDataDir(dataDir)).toBe(0);
  });

  it("creates a new data folder for the owner only", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "mailwise-perm-"));
    made.push(root);
    const dataDir = path.join(root, "fresh");
    expect(await restrictDataDir(dataDir)).toBe(0);
    expect(await modeOf(dataDir)).toBe(0o700);
  });
});
