import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { emailListResponseSchema } from "../contract/mail.ts";
import { consentAtEmulator } from "../server/test/emulator-consent.ts";
import { freePort } from "../server/test/free-port.ts";
import { createThrowawayDatabase } from "../server/test/postgres.ts";

// Four server processes start on two cores beside the rest of the suite.
const TIMEOUT = 600_000;

describe("npm run start:cluster", () => {
  it(
    "serves through one port from two web processes while two workers sync, and stops everything",
    async () => {
      // The run's PostgreSQL server (a throwaway server of the script's own is tested in server/test).
      const database = await createThrowawayDatabase();
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const cluster = spawn(process.execPath, ["--import", "tsx", "scripts/start-cluster.ts"], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          PORT: String(port),
          PUBLIC_URL: base,
          EMULATOR_PORT: String(await freePort()),
          DEMO_MODE: "on",
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise<number | null>((resolve) => cluster.once("exit", resolve));
      try {
        const webUrls = await new Promise<string[]>((resolve, reject) => {
          createInterface({ input: cluster.stdout }).on("line", (line) => {
            const m = /web processes \((.*)\) behind it/.exec(line);
            if (m?.[1]) resolve(m[1].split(", "));
          });
          void exited.then((code) => reject(new Error(`start:cluster exited with ${code}`)));
        });
        expect(webUrls).toHaveLength(2);

        const servedBy = new Set<string | null>();
        for (let i = 0; i < 4; i++) {
          const r = await fetch(`${base}/readyz`);
          expect(r.status).toBe(200);
          servedBy.add(r.headers.get("x-served-by"));
        }
        expect([...servedBy].sort()).toEqual(["web-1", "web-2"]);

        // Sign in through the proxy: the flow starts on one web process and returns to the other.
        const start = await fetch(`${base}/api/auth/gmail`);
        const cookie = start.headers
          .getSetCookie()
          .find((c) => c.startsWith("mailwise_oauth_flow="))
          ?.split(";")[0];
        const { authUrl } = (await start.json()) as { authUrl: string };
        const back = await consentAtEmulator(authUrl, "alex.morgan@gmail.com");
        const callback = await fetch(`${base}/api/auth/gmail/callback?${back.searchParams}`, {
          headers: { cookie: cookie ?? "", accept: "application/json" },
        });
        expect(callback.headers.get("x-served-by")).not.toBe(start.headers.get("x-served-by"));
        const { sessionToken } = (await callback.json()) as { sessionToken: string };
        expect(typeof sessionToken).toBe("string");

        // Web processes only enqueue; the mail arrives because a worker process ran the sync.
        let emails = 0;
        for (let i = 0; i < 120 && emails === 0; i++) {
          const list = await fetch(`${base}/api/emails`, {
            headers: { authorization: `Bearer ${sessionToken}` },
          });
          emails = emailListResponseSchema.parse(await list.json()).emails.length;
          if (emails === 0) await sleep(1_000);
        }
        expect(emails).toBeGreaterThan(0);

        cluster.kill("SIGTERM");
        expect(await exited).toBe(0);
        for (const url of [base, ...webUrls]) {
          await expect(fetch(`${url}/readyz`)).rejects.toThrow();
        }
      } finally {
        // SIGTERM, not SIGKILL: the script stops its server processes on the way out.
        if (cluster.exitCode === null) {
          cluster.kill("SIGTERM");
          await Promise.race([exited, sleep(60_000)]);
        }
        await database.drop();
      }
    },
    TIMEOUT,
  );
});
