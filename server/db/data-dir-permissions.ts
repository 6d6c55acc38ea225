import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

/** Group and other permission bits. */
const NOT_OWNER = 0o077;

/**
 * DATA_DIR holds mail bodies, the database and the secret key: only the server's own user may read
 * it. Creates it 0700 and takes group and other bits off every folder (0700) and file (owner bits
 * only, so 0600) already inside, without following symbolic links. Returns how many it changed,
 * which the server logs at start; new files are owner-only through the process umask (main.ts).
 */
export async function restrictDataDir(dir: string): Promise<number> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let changed = 0;
  async function visit(p: string): Promise<void> {
    const stat = await lstat(p);
    if (stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o777;
    if (stat.isDirectory()) {
      if (mode !== 0o700) {
        await chmod(p, 0o700);
        changed++;
      }
      for (const entry of await readdir(p)) await visit(path.join(p, entry));
    } else if (mode & NOT_OWNER) {
      await chmod(p, mode & 0o700);
      changed++;
    }
  }
  await visit(dir);
  return changed;
}
