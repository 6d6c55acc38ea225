/**
 * The synced mailbox the throughput bench measures on, built the way api-load.ts builds it: mail
 * generated in the emulator, a sign-in through the real OAuth pages, the app's own sync and
 * analysis run to the end. Nothing is written in SQL.
 */
import type { SyncStatus } from "../../contract/mail.ts";
import type { AppProcess } from "../mail/app-process.ts";
import { emulatorAdmin, getJson, signIn, until, untilAnalysed } from "../mail/bench-kit.ts";

const HOUR_MS = 60 * 60_000;

/** Generates `count` messages for `email` in the emulator, quotas off (the app is measured, not Gmail's quota). */
export async function generateMailbox(emulatorUrl: string, email: string, count: number): Promise<void> {
  const admin = emulatorAdmin(emulatorUrl);
  await admin("PUT", "mail/faults", { gmailQuota: { enabled: false }, graphThrottle: { enabled: false } });
  await admin("POST", `mailboxes/${encodeURIComponent(email)}/generate`, { count, seed: 42, days: 60 });
}

/** Waits until the account's sync is idle with at least `count` messages; a sync error stops the bench. */
export function syncedAtLeast(app: AppProcess, token: string, count: number): Promise<SyncStatus> {
  return until("sync", HOUR_MS, async () => {
    const { accounts } = await getJson<{ accounts: SyncStatus[] }>(app, token, "/api/emails/sync-status");
    const s = accounts[0];
    if (s?.status === "error" || s?.status === "reauth_required")
      throw new Error(`sync ${s.status}: ${s.lastError}`);
    return s?.status === "idle" && (s.totalEstimate ?? 0) >= count ? s : undefined;
  });
}

/** Waits until no synced email waits for analysis (the test hook ENABLE_TEST_HOOKS adds). */
export function analysed(app: AppProcess, token: string, email: string): Promise<true> {
  return untilAnalysed(app, token, email, HOUR_MS);
}

/** Signs `email` in, then waits for the sync and the analysis; returns the session and the times. */
export async function syncMailbox(
  app: AppProcess,
  email: string,
  count: number,
): Promise<{ token: string; syncSeconds: number; analysedSeconds: number }> {
  const started = performance.now();
  const token = await signIn(app, "gmail", email);
  await syncedAtLeast(app, token, count);
  const syncSeconds = (performance.now() - started) / 1000;
  await analysed(app, token, email);
  return { token, syncSeconds, analysedSeconds: (performance.now() - started) / 1000 };
}
