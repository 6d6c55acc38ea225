/**
 * Issue 35: a 25 MB attachment downloads while the server process grows by less than 30 MB.
 *
 * The real server (`server/main.ts`, PGlite) runs in its own process beside a forked emulator;
 * each provider's mailbox gets one mail with a 25 MB file and one with a 1 MB file (the baseline
 * in the same run). After a warm-up download, the server's resident memory (process tree, Linux
 * /proc) is read before each download and every 100 ms during it; growth = peak - before. The
 * client reads the answer as a stream and keeps nothing.
 *
 *   npx tsx bench/mail/attachment-memory.ts [--no-append]
 */

import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Email, EmailListResponse } from "../../contract/mail.ts";
import { PEOPLE } from "../../server/test/auth-fixture.ts";
import { freePort } from "../../server/test/free-port.ts";
import { machineLine, publishResults, runMain } from "../sync/report.ts";
import { type AppProcess, startAppProcess } from "./app-process.ts";
import { benchAppEnv, benchEmulator, emulatorAdmin, getJson, signIn } from "./bench-kit.ts";

const BIG = 25 * 1024 * 1024;
const SMALL = 1024 * 1024;
const LIMIT_MB = 30;
const PUSH_SECRET = "bench-push-secret-0123456789abcdef";

type Provider = "gmail" | "outlook";
const emulatorName = (p: Provider) => (p === "gmail" ? "google" : "microsoft");

/** Downloads a link, discarding the bytes; the server's RSS before and its peak while it ran. */
async function measure(app: AppProcess, url: string) {
  await sleep(500);
  const before = await app.rssMb();
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await app.rssMb());
      await sleep(100);
    }
  })();
  const started = performance.now();
  const response = await fetch(`${app.url}${url}`);
  if (response.status !== 200 || !response.body) throw new Error(`download answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).length;
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  peak = Math.max(peak, await app.rssMb());
  return { before, peak, growth: peak - before, bytes, seconds };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mailwise-attachment-bench-"));
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const emulator = await benchEmulator(appUrl, PUSH_SECRET, ["gmail", "outlook"]);
  let app: AppProcess | undefined;
  const lines: string[] = [];
  try {
    const admin = emulatorAdmin(emulator.url);
    const people: [Provider, string][] = [
      ["gmail", PEOPLE.alex],
      ["outlook", PEOPLE.jordan],
    ];
    for (const [provider, email] of people) {
      const q = `?provider=${emulatorName(provider)}`;
      for (const [size, name] of [
        [BIG, "big.bin"],
        [SMALL, "small.bin"],
        [SMALL, "warm-up.bin"],
      ] as const) {
        await admin("POST", `mailboxes/${encodeURIComponent(email)}/attachment-mail${q}`, {
          subject: name,
          files: [{ filename: name, mimeType: "application/octet-stream", size, seed: size }],
        });
      }
    }
    app = await startAppProcess({
      name: "app",
      port,
      env: benchAppEnv(appUrl, emulator.url, PUSH_SECRET, { DATA_DIR: dataDir }),
    });
    lines.push(
      "## Attachments: a 25 MB download and the server's memory (issue 35)",
      "",
      `${machineLine()} · 2-core VM, shared with other work · PGlite, server and emulator in processes of their own`,
      "`npx tsx bench/mail/attachment-memory.ts`: server RSS (process tree) before each download and its peak",
      `while the client streams the file and keeps nothing; target: growth under ${LIMIT_MB} MB for 25 MB.`,
      "",
      "| provider | file | bytes | RSS before | peak | growth | time |",
      "|---|---|---:|---:|---:|---:|---:|",
    );
    const failures: string[] = [];
    const a = app;
    // Both accounts synced and analysed first: the figures are the downloads', not sync's or the analyzer's.
    const sessions: { provider: Provider; token: string; list: EmailListResponse }[] = [];
    for (const [provider, email] of people) {
      const token = await signIn(a, provider, email);
      const list = await (async () => {
        for (let i = 0; i < 2400; i += 1) {
          const page = await getJson<EmailListResponse>(a, token, "/api/emails?limit=50");
          const { pending } = await getJson<{ pending: number }>(
            a,
            token,
            `/api/_test/ai-pending?email=${encodeURIComponent(email)}`,
          );
          if (page.emails.length >= 3 && pending === 0) return page;
          await sleep(250);
        }
        throw new Error(`${provider}: sync or analysis did not finish`);
      })();
      sessions.push({ provider, token, list });
    }
    await sleep(3_000);
    for (const { provider, token, list } of sessions) {
      const urlOf = async (subject: string) => {
        const id = list.emails.find((e) => e.subject === subject)?.id;
        const email = await getJson<Email>(a, token, `/api/emails/${id}`);
        const url = email.attachments[0]?.url;
        if (!url) throw new Error(`${provider}: no link for ${subject}`);
        return url;
      };
      await measure(app, await urlOf("warm-up.bin"));
      for (const [subject, size] of [
        ["small.bin", SMALL],
        ["big.bin", BIG],
      ] as const) {
        const m = await measure(app, await urlOf(subject));
        if (m.bytes !== size) throw new Error(`${provider} ${subject}: ${m.bytes} bytes, expected ${size}`);
        lines.push(
          `| ${provider} | ${subject} (${size / 1024 / 1024} MB) | ${m.bytes.toLocaleString("en")} | ${m.before.toFixed(1)} MB | ${m.peak.toFixed(1)} MB | ${m.growth.toFixed(1)} MB | ${m.seconds.toFixed(2)} s |`,
        );
        if (size === BIG && m.growth >= LIMIT_MB)
          failures.push(`${provider}: grew ${m.growth.toFixed(1)} MB`);
      }
    }
    lines.push(
      "",
      failures.length === 0
        ? `Both under the ${LIMIT_MB} MB target.`
        : `Over target: ${failures.join("; ")}.`,
    );
    await publishResults(lines.join("\n"));
    if (failures.length > 0) throw new Error(`over the memory target: ${failures.join("; ")}`);
  } finally {
    await app?.close();
    await emulator.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

runMain(main);
