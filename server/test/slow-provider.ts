/**
 * Shared by the tests of write-backs to a slow provider (write-timeout, pending-move): the
 * timeout and latency they use, the emulator's view of a message, and small calls on a
 * SyncFixture (the API with a session, the emulator's copy of a message, sync at rest).
 */
import { type SyncFixture, waitUntil } from "./sync-fixture.ts";

/** A click waits at most this long for the provider; the tests' provider takes LATENCY_MS. */
export const WRITE_TIMEOUT_MS = 1_000;
export const LATENCY_MS = 4_000;

export type Provider = "gmail" | "outlook";
export const emulatorProvider = (p: Provider) => (p === "gmail" ? "google" : "microsoft");

/** A message as the emulator's admin API shows it. */
export interface AdminMessage {
  id: string;
  graphId: string;
  labelIds: string[];
  folder: string;
  messageId: string;
}

/** Calls the app's API with a session token; the answer's status and parsed JSON body. */
export async function callApi(f: SyncFixture, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${f.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The emulator's copy of a message in a person's mailbox, with the admin call's status. */
export async function emulatorMessage(f: SyncFixture, owner: string, provider: Provider, id: string) {
  const r = await f.admin(
    "GET",
    `mailboxes/${encodeURIComponent(owner)}/messages/${id}?provider=${emulatorProvider(provider)}`,
  );
  return { status: r.status, message: r.json as AdminMessage };
}

/**
 * Waits until the account's sync is idle with nothing queued. Quiet before the faults: a sync
 * stuck behind the latency would hold the account's Graph concurrency permits, and the
 * write-back would never leave (a different case).
 */
export async function syncAtRest(f: SyncFixture, accountId: string): Promise<void> {
  await waitUntil(
    async () => {
      const s = await f.state(accountId);
      return s?.backfillDone && s.status === "idle" && !s.leaseOwner && !s.queuedAt;
    },
    15_000,
    "sync at rest",
  );
}

/**
 * Waits until the email shows `pending`: actions answer before the provider (decision 0086), so
 * a write-back that gets no answer is marked pending WRITE_TIMEOUT_MS after the click.
 */
export async function untilPending(f: SyncFixture, token: string, id: string): Promise<void> {
  await waitUntil(
    async () => (await callApi(f, "GET", `/api/emails/${id}`, token)).json.pending === true,
    WRITE_TIMEOUT_MS + 5_000,
    "the write-back marked pending",
  );
}
