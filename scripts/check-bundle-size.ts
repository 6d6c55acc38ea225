/**
 * Fails when the JavaScript a visitor downloads for the landing route (entry chunk, the landing
 * page chunk and everything they import statically) exceeds the budget, gzipped.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_BYTES = 100 * 1024;
const dist = path.resolve(process.argv[2] ?? "dist/web");

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8")) as Manifest;

function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const k of keys) visit(k);
  return seen;
}

const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
const landing = Object.keys(manifest).find((k) => k.endsWith("src/pages/landing.tsx"));
if (!entry || !landing) throw new Error("entry or landing chunk missing from the manifest");

let total = 0;
for (const key of closure([entry, landing])) {
  const file = manifest[key]?.file ?? "";
  if (!file.endsWith(".js")) continue;
  const gz = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += gz;
  console.log(`${(gz / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
const verdict = total <= BUDGET_BYTES ? "within" : "OVER";
console.log(
  `landing route JS: ${(total / 1024).toFixed(1)} KB gzipped, ${verdict} the ${BUDGET_BYTES / 1024} KB budget`,
);
if (total > BUDGET_BYTES) process.exit(1);
