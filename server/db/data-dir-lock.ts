import { open, readFile, unlink } from "node:fs/promises";
import path from "node:path";

const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite is one process's database: a second process opening the same folder corrupts it. A pid
 * file makes the second start fail with a clear message; a stale file from a crash is replaced.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, "mailwise.pid");
  if (heldHere.has(file)) throw new Error(`${dir} is already open in this process`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      heldHere.add(file);
      return async () => {
        heldHere.delete(file);
        await unlink(file).catch(() => undefined);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number((await readFile(file, "utf8").catch(() => "")).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `Another Mailwise process (pid ${pid}) is using the embedded database in ${dir}. ` +
            "Stop it, set DATA_DIR to another folder, or use DATABASE_URL for several processes.",
        );
      }
      await unlink(file).catch(() => undefined);
    }
  }
  throw new Error(`Could not lock ${dir}`);
}
