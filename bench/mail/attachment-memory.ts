/**
 * Issue 35: a 25 MB attachment downloads while the server process grows by less than 30 MB.
 *
 * The real server (`server/main.ts`, PGlite) runs in its own process beside a forked emulator;
 * each provider's mailbox gets one mail with a 25 MB file and one with a 1 MB file (the baseline
 * in the same run). After a warm-up download, the server's resident memory (process tree, Linux
 * /proc) is read before each download and every 10 ms during it; growth = peak - before. The
 * client reads the answer as a stream and keeps nothing.
 *
 *   npx tsx bench/mail/attachment-memory.ts [--no-append]
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Email, EmailListResponse } from "../../contract/mail.ts";
import { forkEmulator } from "../../emulator/child-process.ts";
import { PEOPLE, TEST_OAUTH_CLIENTS } from "../../server/test/auth-fixture.ts";
import { consentAtEmulator } from "../../server/test/emulator-consent.ts";
import { freePort } from "../../server/test/free-port.ts";
import { machineLine, publishResults, runMain } from "../sync/report.ts";
import { type AppProcess, startAppProcess } from "./app-process.ts";

const BIG = 25 * 1024 * 1024;
const SMALL = 1024 * 1024;
const LIMIT_MB = 30;
const PUSH_SECRET = "bench-push-secret-0123456789abcdef";

type Provider = "gmail" | "outlook";
const emulatorName = (p: Provider) => (p === "gmail" ? "google" : "microsoft");

async function signIn(app: AppProcess, provider: Provider, email: string): Promise<string> {
  const start = await fetch(`${app.url}/api/auth/${provider}`);
  const cookie = start.headers
    .getSetCookie()
    .find((c) => c.startsWith("mailwise_oauth_flow="))
    ?.split(";")[0];
  const { authUrl } = (await start.json()) as { authUrl: string };
  const back = await consentAtEmulator(authUrl, email);
  const callback = await fetch(`${app.url}/api/auth/${provider}/callback?${back.searchParams.toString()}`, {
    headers: { accept: "application/json", ...(cookie ? { cookie } : {}) },
  });
  const body = (await callback.json()) as { sessionToken?: string };
  if (callback.status !== 200 || !body.sessionToken) throw new Error(`sign-in failed: ${callback.status}`);
  return body.sessionToken;
}

async function api<T>(app: AppProcess, token: string, p: string): Promise<T> {
  const r = await fetch(`${app.url}${p}`, { headers: { authorization: `Bearer ${token}` } });
  if (r.status !== 200) throw new Error(`${p} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

/** Downloads a link, discarding the bytes; the server's RSS before and its peak while it ran. */
async function measure(app: AppProcess, url: string) {
  await sleep(500);
  const before = await app.rssMb();
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await app.rssMb());
      await sleep(10);
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
  const emulator = await forkEmulator({
    admin: true,
    mail: { seedCorpus: false, gmailPushUrl: `${appUrl}/api/webhooks/gmail?token=${PUSH_SECRET}` },
    clients: [
      {
        provider: "google",
        ...TEST_OAUTH_CLIENTS.gmail,
        name: "Mailwise Bench",
        redirectUris: [`${appUrl}/auth/callback`],
      },
      {
        provider: "microsoft",
        ...TEST_OAUTH_CLIENTS.outlook,
        name: "Mailwise Bench",
        redirectUris: [`${appUrl}/auth/callback`],
      },
    ],
  });
  let app: AppProcess | undefined;
  const lines: string[] = [];
  try {
    const admin = async (p: string, body: unknown) => {
      const r = await fetch(`${emulator.url}/_admin/${p}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (r.status >= 300) throw new Error(`emulator ${p} answered ${r.status}: ${await r.text()}`);
    };
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
        await admin(`mailboxes/${encodeURIComponent(email)}/attachment-mail${q}`, {
          subject: name,
          files: [{ filename: name, mimeType: "application/octet-stream", size, seed: size }],
        });
      }
    }
    app = await startAppProcess({
      name: "app",
      port,
      env: {
        DATA_DIR: dataDir,
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        PUBLIC_URL: appUrl,
        SECRET_KEY: randomBytes(32).toString("hex"),
        DEMO_MODE: "off",
        PROVIDER_EMULATOR_URL: emulator.url,
        GOOGLE_CLIENT_ID: TEST_OAUTH_CLIENTS.gmail.clientId,
        GOOGLE_CLIENT_SECRET: TEST_OAUTH_CLIENTS.gmail.clientSecret,
        MICROSOFT_CLIENT_ID: TEST_OAUTH_CLIENTS.outlook.clientId,
        MICROSOFT_CLIENT_SECRET: TEST_OAUTH_CLIENTS.outlook.clientSecret,
        PUSH_WEBHOOK_SECRET: PUSH_SECRET,
        // Only for GET /api/_test/ai-pending: the analysis of the synced mail (which loads the
        // analyzer's models) ends before any download is measured.
        ENABLE_TEST_HOOKS: "1",
      },
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
          const page = await api<EmailListResponse>(a, token, "/api/emails?limit=50");
          const { pending } = await api<{ pending: number }>(
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
        const email = await api<Email>(a, token, `/api/emails/${id}`);
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
