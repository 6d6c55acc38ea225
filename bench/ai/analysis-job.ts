/**
 * The ai.analyze job's throughput on the SpamAssassin corpus (6,046 messages) stored as synced
 * rows in PGlite: batches of 200 as the job runs them, local engine. Run: npx tsx bench/ai/analysis-job.ts
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AnalyzerInput } from "../../server/ai/local/types.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/client.ts";
import { createServices } from "../../server/services.ts";
import { createAccount, createEmails, createUser } from "../../server/test/factories.ts";
import { corpusIndex, readRaw, toAnalyzerInput } from "./corpus.ts";

const dir = await mkdtemp(path.join(os.tmpdir(), "mw-ai-bench-"));
const database = await openDatabase({ database: { kind: "pglite", dir } });
const config = loadConfig({
  NODE_ENV: "test",
  DEMO_MODE: "off",
  SECRET_KEY: "bench-secret-key-not-for-production-0123456789",
});
const services = await createServices({
  config,
  database,
  role: "web",
  log: { info() {}, warn() {}, error() {} },
});
const user = await createUser(database.db);
const account = await createAccount(database.db, user.id);
const { dir: corpusDir, messages } = corpusIndex();
const inputs: AnalyzerInput[] = [];
for (const m of messages) inputs.push(await toAnalyzerInput(readRaw(corpusDir, m)));
await createEmails(database.db, account, inputs.length, (i) => {
  const e = inputs[i];
  if (!e) return {};
  return {
    fromName: e.from.name.slice(0, 200),
    fromAddress: e.from.address.slice(0, 200),
    subject: e.subject.replaceAll("\u0000", "").slice(0, 500),
    bodyText: e.bodyText?.replaceAll("\u0000", "") ?? null,
    bodyHtml: e.bodyHtml?.replaceAll("\u0000", "") ?? null,
    snippet: (e.bodyText ?? "").replaceAll("\u0000", "").slice(0, 200),
    listUnsubscribe: e.headers?.listUnsubscribe ?? null,
    receivedAt: e.receivedAt ?? new Date(),
  };
});
const started = Date.now();
let total = 0;
for (;;) {
  const n = await services.ai.analysis.analysePending(user.id, 200);
  total += n;
  if (n < 200) break;
}
const seconds = (Date.now() - started) / 1000;
console.info(
  `analysed ${total} emails in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)} emails/s)`,
);
await database.close();
await rm(dir, { recursive: true, force: true });
