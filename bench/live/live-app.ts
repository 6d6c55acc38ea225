/**
 * What both live-inbox benches start: a fresh embedded database, the emulator in its own process
 * pushing Gmail changes to the app, the real server in its own process, and one person signed in
 * with a synced mailbox.
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../../server/test/free-port.ts";
import { type AppProcess, startAppProcess } from "../mail/app-process.ts";
import {
  benchAppEnv,
  benchEmulator,
  emulatorAdmin,
  freshDatabase,
  getJson,
  signIn,
  until,
  untilAnalysed,
} from "../mail/bench-kit.ts";

export const PERSON = "sam.taylor@gmail.com";

export interface LiveApp {
  app: AppProcess;
  token: string;
  /** Adds a message to the person's Gmail inbox at the emulator (which pushes to the app). */
  inject(subject: string): Promise<void>;
  close(): Promise<void>;
}

export async function startLiveApp(mailboxSize: number): Promise<LiveApp> {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const secret = randomBytes(16).toString("hex");
  const database = await freshDatabase("pglite");
  const emulator = await benchEmulator(appUrl, secret, ["gmail"]);
  const admin = emulatorAdmin(emulator.url);
  const enc = encodeURIComponent(PERSON);
  await admin("POST", `mailboxes/${enc}/generate`, { count: mailboxSize, seed: 5, days: 60 });
  const app = await startAppProcess({
    name: "app",
    port,
    env: benchAppEnv(appUrl, emulator.url, secret, database.env),
  });
  const token = await signIn(app, "gmail", PERSON);
  await until("the first sync", 180_000, async () => {
    const { accounts } = await getJson<{ accounts: Array<{ status: string }> }>(
      app,
      token,
      "/api/emails/sync-status",
    );
    return accounts.length > 0 && accounts.every((a) => a.status === "idle") ? true : undefined;
  });
  // The watch is registered right after the first page; the analysis of the mailbox follows.
  await untilAnalysed(app, token, PERSON, 300_000);
  await sleep(1000);
  return {
    app,
    token,
    async inject(subject) {
      await admin("POST", `mailboxes/${enc}/messages`, {
        from: { name: "Probe Sender", address: "probe@example.org" },
        subject,
        text: "A probe of the live inbox.",
        labelIds: ["INBOX", "UNREAD"],
      });
    },
    async close() {
      await app.close();
      await emulator.close();
      await database.destroy();
    },
  };
}
