import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Email, emailListResponseSchema, emailSchema } from "../../contract/mail.ts";
import { PEOPLE } from "../test/auth-fixture.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

// A click waits at most this long for the provider; the provider below takes LATENCY_MS.
const WRITE_TIMEOUT_MS = 1_000;
const LATENCY_MS = 4_000;

type Provider = "gmail" | "outlook";
const emulatorProvider = (p: Provider) => (p === "gmail" ? "google" : "microsoft");

interface AdminMessage {
  id: string;
  graphId: string;
  labelIds: string[];
  folder: string;
  messageId: string;
}

/**
 * Issue 34.3: a move written back to Graph while it is slow (the pending path of decision 0019)
 * lands late and gives the message a new id, which we never heard. The old id then answers 404
 * and the inbox delta reports it gone; the mail must settle under its new id (as archived,
 * deleted or back in the inbox), keep its analysis and the person's read/star state, stay
 * searchable, and later syncs must neither double it nor bring it back to the inbox.
 */
describe("moves written back while the provider is slow (pglite)", () => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture("pglite", { PROVIDER_WRITE_TIMEOUT_MS: String(WRITE_TIMEOUT_MS) });
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });
  afterEach(async () => {
    await f.admin("POST", "mail/faults/reset");
  });

  async function api(method: string, path: string, token: string, body?: unknown) {
    const response = await fetch(`${f.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as unknown) : {} };
  }

  const email = async (token: string, id: string): Promise<Email> =>
    emailSchema.parse((await api("GET", `/api/emails/${id}`, token)).json);

  async function listed(token: string, query: string): Promise<string[]> {
    const r = await api("GET", `/api/emails?${query}`, token);
    expect(r.status).toBe(200);
    return emailListResponseSchema.parse(r.json).emails.map((e) => e.id);
  }

  async function inMailbox(owner: string, provider: Provider, id: string) {
    const r = await f.admin(
      "GET",
      `mailboxes/${encodeURIComponent(owner)}/messages/${id}?provider=${emulatorProvider(provider)}`,
    );
    return { status: r.status, message: r.json as AdminMessage };
  }

  async function deliver(provider: Provider, owner: string, subject: string): Promise<AdminMessage> {
    const r = await f.admin(
      "POST",
      `mailboxes/${encodeURIComponent(owner)}/messages?provider=${emulatorProvider(provider)}`,
      {
        from: { name: "Priya Shah", address: PEOPLE.priya },
        subject,
        text: "Could you look at this by Friday?",
      },
    );
    expect(r.status).toBe(201);
    return r.json as AdminMessage;
  }

  async function atRest(accountId: string): Promise<void> {
    // Quiet before the faults: a sync stuck behind the latency would hold the account's Graph
    // concurrency permits, and the write-back would never leave (a different case).
    await waitUntil(
      async () => {
        const s = await f.state(accountId);
        return s?.backfillDone && s.status === "idle" && !s.leaseOwner && !s.queuedAt;
      },
      15_000,
      "sync at rest",
    );
  }

  /** Delivers mail with `word` in each subject, signs in, waits for sync and the AI analysis. */
  async function syncedMail(provider: Provider, owner: string, word: string, count: number) {
    const delivered: AdminMessage[] = [];
    for (let i = 0; i < count; i++) delivered.push(await deliver(provider, owner, `${word} report ${i}`));
    const { token, accountId } = await f.signIn(provider, owner);
    const rows = await waitUntil(
      async () => {
        const all = await f.rows(accountId);
        return all.length >= count && all.every((r) => r.aiAnalysis !== null) ? all : undefined;
      },
      20_000,
      "initial sync and analysis",
    );
    await atRest(accountId);
    const messages = delivered.map((message) => {
      const row = rows.find((r) => r.internetMessageId === message.messageId);
      if (!row) throw new Error(`no row for ${message.messageId}`);
      return { message, row };
    });
    return { token, accountId, messages };
  }

  async function slowProvider(provider: Provider): Promise<void> {
    const r = await f.admin("PUT", "mail/faults", {
      latencyMs: LATENCY_MS,
      provider: emulatorProvider(provider),
    });
    expect(r.status).toBe(200);
  }

  /** Recovery, then one sync of the account; resolves when no row of it is pending. */
  async function recoverAndSync(accountId: string): Promise<void> {
    await f.admin("POST", "mail/faults/reset");
    await f.services.sync.service.requestSync(accountId, "manual");
    await waitUntil(
      async () => (await f.rows(accountId)).every((r) => r.writePendingAt === null),
      15_000,
      "settled write-backs",
    );
    await atRest(accountId);
  }

  /** New mail, then an incremental sync that stores it: whatever the delta holds is applied. */
  async function laterSync(provider: Provider, owner: string, accountId: string): Promise<void> {
    const next = await deliver(provider, owner, "Unrelated later mail");
    await f.services.sync.service.requestSync(accountId, "manual");
    await waitUntil(
      async () => (await f.rows(accountId)).some((r) => r.internetMessageId === next.messageId),
      15_000,
      "the later incremental sync",
    );
    await atRest(accountId);
  }

  /** The rows of this account holding the message (by its RFC 5322 Message-ID). */
  const rowsOf = async (accountId: string, message: AdminMessage) =>
    (await f.rows(accountId)).filter((r) => r.internetMessageId === message.messageId);

  it("Outlook: an archive that lands late settles as archived under Graph's new id, analysis and read/star kept", async () => {
    const owner = PEOPLE.casey;
    const { token, accountId, messages } = await syncedMail("outlook", owner, "Quokka", 2);
    const [{ message, row }, other] = messages as [(typeof messages)[0], (typeof messages)[0]];
    // Confirmed changes first: the person read and starred it.
    const marked = await api("PATCH", `/api/emails/${row.id}`, token, { isRead: true, isStarred: true });
    expect(emailSchema.parse(marked.json)).toMatchObject({ isRead: true, isStarred: true });
    expect(emailSchema.parse(marked.json).pending).toBeUndefined();
    await atRest(accountId);
    const analysis = (await rowsOf(accountId, message))[0]?.aiAnalysis;
    expect(analysis).not.toBeNull();

    await slowProvider("outlook");
    const r = await api("PATCH", `/api/emails/${row.id}`, token, { isArchived: true });
    expect(r.status).toBe(200);
    expect(emailSchema.parse(r.json)).toMatchObject({ isArchived: true, pending: true });
    await waitUntil(
      async () => (await inMailbox(owner, "outlook", message.id)).message.folder === "archive",
      LATENCY_MS + 5_000,
      "the late move at the provider",
    );
    const moved = (await inMailbox(owner, "outlook", message.id)).message;
    expect(moved.graphId).not.toBe(message.graphId);
    await recoverAndSync(accountId);

    const [settled, ...more] = await rowsOf(accountId, message);
    expect(more).toHaveLength(0);
    expect(settled).toMatchObject({
      id: row.id,
      providerId: moved.graphId,
      inInbox: false,
      isTrashed: false,
    });
    expect(settled?.aiAnalysis).toEqual(analysis);
    const shown = await email(token, row.id);
    expect(shown).toMatchObject({ isArchived: true, isRead: true, isStarred: true });
    expect(shown.pending).toBeUndefined();
    expect(await listed(token, "q=quokka&includeArchived=true")).toEqual(
      expect.arrayContaining([row.id, other.row.id]),
    );
    expect(await listed(token, "limit=200")).not.toContain(row.id);

    await laterSync("outlook", owner, accountId);
    const after = await rowsOf(accountId, message);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: row.id, providerId: moved.graphId, inInbox: false });
    expect(await listed(token, "limit=200")).not.toContain(row.id);
    // The settled row answers to its new id: a later action reaches the moved message.
    await api("PATCH", `/api/emails/${row.id}`, token, { isRead: false });
    expect((await inMailbox(owner, "outlook", message.id)).message.labelIds).toContain("UNREAD");
  }, 60_000);
});
