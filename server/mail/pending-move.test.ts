import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Email, emailListResponseSchema, emailSchema } from "../../contract/mail.ts";
import { PEOPLE } from "../test/auth-fixture.ts";
import {
  type AdminMessage,
  callApi,
  emulatorMessage,
  emulatorProvider,
  LATENCY_MS,
  type Provider,
  syncAtRest,
  untilPending,
  WRITE_TIMEOUT_MS,
} from "../test/slow-provider.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

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

  const api = (method: string, path: string, token: string, body?: unknown) =>
    callApi(f, method, path, token, body);

  const email = async (token: string, id: string): Promise<Email> =>
    emailSchema.parse((await api("GET", `/api/emails/${id}`, token)).json);

  async function listed(token: string, query: string): Promise<string[]> {
    const r = await api("GET", `/api/emails?${query}`, token);
    expect(r.status).toBe(200);
    return emailListResponseSchema.parse(r.json).emails.map((e) => e.id);
  }

  const inMailbox = (owner: string, provider: Provider, id: string) =>
    emulatorMessage(f, owner, provider, id);

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

  const atRest = (accountId: string) => syncAtRest(f, accountId);

  /** A new person with an empty mailbox at the emulator (the seeded ones are few). */
  async function person(provider: Provider, word: string): Promise<string> {
    const address = `${word.toLowerCase()}.keeper@${provider === "gmail" ? "gmail.com" : "outlook.com"}`;
    const r = await f.admin("POST", "identities", {
      provider: emulatorProvider(provider),
      email: address,
      name: `${word} Keeper`,
    });
    expect(r.status).toBe(201);
    return address;
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
    await f.writesBack();
    expect((await email(token, row.id)).pending).toBeUndefined();
    await atRest(accountId);
    const analysis = (await rowsOf(accountId, message))[0]?.aiAnalysis;
    expect(analysis).not.toBeNull();

    await slowProvider("outlook");
    const r = await api("PATCH", `/api/emails/${row.id}`, token, { isArchived: true });
    expect(r.status).toBe(200);
    expect(emailSchema.parse(r.json)).toMatchObject({ isArchived: true });
    await untilPending(f, token, row.id);
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
    await f.writesBack();
    expect((await inMailbox(owner, "outlook", message.id)).message.labelIds).toContain("UNREAD");
  }, 60_000);

  it("Outlook: a bulk archive that lands late settles every email under its new id, once", async () => {
    const owner = await person("outlook", "Wombat");
    const { token, accountId, messages } = await syncedMail("outlook", owner, "Wombat", 3);
    const ids = messages.map((m) => m.row.id);
    await slowProvider("outlook");
    const r = await api("POST", "/api/emails/bulk-action", token, { action: "archive", emailIds: ids });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ updated: 3 });
    for (const id of ids) await untilPending(f, token, id);
    for (const { message } of messages) {
      await waitUntil(
        async () => (await inMailbox(owner, "outlook", message.id)).message.folder === "archive",
        LATENCY_MS + 5_000,
        "the late moves at the provider",
      );
    }
    await recoverAndSync(accountId);
    await laterSync("outlook", owner, accountId);
    for (const { message, row } of messages) {
      const moved = (await inMailbox(owner, "outlook", message.id)).message;
      const stored = await rowsOf(accountId, message);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ id: row.id, providerId: moved.graphId, inInbox: false });
      expect(stored[0]?.aiAnalysis).toEqual(row.aiAnalysis);
      expect(await email(token, row.id)).toMatchObject({ isArchived: true });
    }
    expect(await listed(token, "q=wombat&includeArchived=true")).toEqual(expect.arrayContaining(ids));
    const inbox = await listed(token, "limit=200");
    for (const id of ids) expect(inbox).not.toContain(id);
  }, 60_000);

  it("Outlook: a delete that lands late settles as deleted under its new id (Deleted Items)", async () => {
    const owner = await person("outlook", "Numbat");
    const { token, accountId, messages } = await syncedMail("outlook", owner, "Numbat", 1);
    const [{ message, row }] = messages as [(typeof messages)[0]];
    await slowProvider("outlook");
    const r = await api("DELETE", `/api/emails/${row.id}`, token);
    expect(r.status).toBe(200);
    expect(emailSchema.parse(r.json)).toMatchObject({ isArchived: false });
    await untilPending(f, token, row.id);
    await waitUntil(
      async () => (await inMailbox(owner, "outlook", message.id)).message.folder === "deleteditems",
      LATENCY_MS + 5_000,
      "the late move at the provider",
    );
    await recoverAndSync(accountId);
    await laterSync("outlook", owner, accountId);
    const moved = (await inMailbox(owner, "outlook", message.id)).message;
    const stored = await rowsOf(accountId, message);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: row.id,
      providerId: moved.graphId,
      isTrashed: true,
      inInbox: false,
    });
    // Moved back from Deleted Items: the action reaches the message under its new id.
    const back = await api("PATCH", `/api/emails/${row.id}`, token, { isArchived: false });
    expect(emailSchema.parse(back.json)).toMatchObject({ isArchived: false });
    await f.writesBack();
    expect((await inMailbox(owner, "outlook", message.id)).message.folder).toBe("inbox");
  }, 60_000);

  it("Outlook: a move back to the inbox that lands late settles as one inbox row under its new id", async () => {
    const owner = await person("outlook", "Bilby");
    const { token, accountId, messages } = await syncedMail("outlook", owner, "Bilby", 1);
    const [{ message, row }] = messages as [(typeof messages)[0]];
    // Archived while the provider answers (re-keyed at once), then moved back while it is slow.
    const archived = await api("PATCH", `/api/emails/${row.id}`, token, { isArchived: true });
    expect(emailSchema.parse(archived.json)).toMatchObject({ isArchived: true });
    await f.writesBack();
    expect((await email(token, row.id)).pending).toBeUndefined();
    await atRest(accountId);
    await slowProvider("outlook");
    const r = await api("PATCH", `/api/emails/${row.id}`, token, { isArchived: false });
    expect(emailSchema.parse(r.json)).toMatchObject({ isArchived: false });
    await untilPending(f, token, row.id);
    await waitUntil(
      async () => (await inMailbox(owner, "outlook", message.id)).message.folder === "inbox",
      LATENCY_MS + 5_000,
      "the late move at the provider",
    );
    await recoverAndSync(accountId);
    await laterSync("outlook", owner, accountId);
    const moved = (await inMailbox(owner, "outlook", message.id)).message;
    const stored = await rowsOf(accountId, message);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: row.id, providerId: moved.graphId, inInbox: true });
    expect(stored[0]?.aiAnalysis).toEqual(row.aiAnalysis);
    expect(await listed(token, "limit=200")).toContain(row.id);
  }, 60_000);

  it("Outlook: a move back to the inbox clicked before a late archive settled reaches the moved message", async () => {
    const owner = await person("outlook", "Quoll");
    const { token, accountId, messages } = await syncedMail("outlook", owner, "Quoll", 1);
    const [{ message, row }] = messages as [(typeof messages)[0]];
    // Sync and the settler read nothing until the gate opens: the click below comes first.
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    f.wrap.current = (client) => ({
      ...client,
      getMessage: async (id) => {
        await gate;
        return client.getMessage(id);
      },
      listChanges: async (cursor) => {
        await gate;
        return client.listChanges(cursor);
      },
    });
    try {
      await slowProvider("outlook");
      const r = await api("PATCH", `/api/emails/${row.id}`, token, { isArchived: true });
      expect(emailSchema.parse(r.json)).toMatchObject({ isArchived: true });
      await untilPending(f, token, row.id);
      await waitUntil(
        async () => (await inMailbox(owner, "outlook", message.id)).message.folder === "archive",
        LATENCY_MS + 5_000,
        "the late move at the provider",
      );
      await f.admin("POST", "mail/faults/reset");
      // The row still holds the old id, which Graph now answers 404.
      const back = await api("PATCH", `/api/emails/${row.id}`, token, { isArchived: false });
      expect(back.status).toBe(200);
      expect(emailSchema.parse(back.json)).toMatchObject({ isArchived: false });
      await f.writesBack();
      expect((await inMailbox(owner, "outlook", message.id)).message.folder).toBe("inbox");
    } finally {
      f.wrap.current = undefined;
      open();
    }
    await recoverAndSync(accountId);
    await laterSync("outlook", owner, accountId);
    const now = (await inMailbox(owner, "outlook", message.id)).message;
    const stored = await rowsOf(accountId, message);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: row.id, providerId: now.graphId, inInbox: true });
    expect(await email(token, row.id)).toMatchObject({ isArchived: false });
  }, 60_000);

  it("Outlook: a move landing after its settle read the mail still in the inbox keeps the row, under the new id", async () => {
    const owner = await person("outlook", "Dunnart");
    const { token, accountId, messages } = await syncedMail("outlook", owner, "Dunnart", 2);
    const [{ message, row }, untouched] = messages as [(typeof messages)[0], (typeof messages)[0]];
    // The person's click, settled as "still in the inbox" (read here, which the provider had).
    expect((await api("PATCH", `/api/emails/${row.id}`, token, { isRead: true })).status).toBe(200);
    await f.writesBack();
    expect((await email(token, row.id)).pending).toBeUndefined();
    await atRest(accountId);
    // Then Graph applies the abandoned archive; the other mail is archived in Outlook itself.
    for (const m of [message, untouched.message]) {
      const moved = await f.admin(
        "POST",
        `mailboxes/${encodeURIComponent(owner)}/messages/${m.id}/modify?provider=microsoft`,
        { removeLabelIds: ["INBOX"] },
      );
      expect(moved.status).toBe(200);
    }
    await laterSync("outlook", owner, accountId);
    const now = (await inMailbox(owner, "outlook", message.id)).message;
    expect(now.folder).toBe("archive");
    const stored = await rowsOf(accountId, message);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: row.id, providerId: now.graphId, inInbox: false, isRead: true });
    expect(stored[0]?.aiAnalysis).toEqual(row.aiAnalysis);
    expect(await listed(token, "q=dunnart&includeArchived=true")).toContain(row.id);
    // Mail never touched here that left the inbox in Outlook leaves our store, as before.
    expect(await rowsOf(accountId, untouched.message)).toHaveLength(0);
  }, 60_000);

  it.each([
    ["gmail", "Dingo"],
    ["outlook", "Possum"],
  ] as const)(
    "%s: mail deleted at the provider while its archive is pending leaves the store once settled",
    async (provider, word) => {
      const owner = await person(provider, word);
      const { token, accountId, messages } = await syncedMail(provider, owner, word, 2);
      const [{ message, row }, kept] = messages as [(typeof messages)[0], (typeof messages)[0]];
      // The provider refuses (late) everything, so nothing moves: only the deletion below happens.
      const faults = await f.admin("PUT", "mail/faults", {
        latencyMs: LATENCY_MS,
        errorRate: 1,
        provider: emulatorProvider(provider),
      });
      expect(faults.status).toBe(200);
      const r = await api("PATCH", `/api/emails/${row.id}`, token, { isArchived: true });
      expect(emailSchema.parse(r.json)).toMatchObject({ isArchived: true });
      await untilPending(f, token, row.id);
      const deleted = await f.admin(
        "DELETE",
        `mailboxes/${encodeURIComponent(owner)}/messages/${message.id}?provider=${emulatorProvider(provider)}`,
      );
      expect(deleted.status).toBe(204);
      await recoverAndSync(accountId);
      expect(await rowsOf(accountId, message)).toHaveLength(0);
      expect((await api("GET", `/api/emails/${row.id}`, token)).status).toBe(404);
      // The other mail is untouched.
      expect(await email(token, kept.row.id)).toMatchObject({ isArchived: false });
    },
    60_000,
  );
});
