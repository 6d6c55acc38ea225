import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { emailSchema, unsubscribeStatusSchema } from "../../contract/mail.ts";
import type { DomainEvents } from "../events.ts";
import { storedAccount } from "../test/auth-db.ts";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { storeProviderEmail } from "../test/factories.ts";

type Provider = "gmail" | "outlook";
interface Delivered {
  id: string;
  graphId: string;
  threadId: string;
  messageId: string;
}
interface AdminMessage {
  id: string;
  graphId: string;
  threadId: string;
  labelIds: string[];
  labelNames: string[];
  folder: string;
  to: string;
  subject: string;
}

/** The RFC 8058 receiver: records what reached it. */
interface Received {
  method: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}

describe.each(BACKENDS)("mail actions written back to the provider on %s", (kind) => {
  let f: AuthFixture;
  let target: http.Server;
  let targetPort: number;
  const received: Received[] = [];

  beforeAll(async () => {
    target = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString("utf8");
      });
      req.on("end", () => {
        received.push({ method: req.method ?? "", body, headers: req.headers });
        res.writeHead(req.url?.startsWith("/reject") ? 500 : 200).end("ok");
      });
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    targetPort = (target.address() as AddressInfo).port;
    // Role "all": unsubscribe runs as a background job, so this server must also work jobs. That
    // includes the sign-in's initial sync, so the mailboxes start empty: a seeded corpus would be
    // syncing in while a test counts its own rows.
    f = await startAuthFixture(
      kind,
      { UNSUBSCRIBE_ALLOW_HOSTS: `127.0.0.1:${targetPort}` },
      { seedCorpus: false },
      { role: "all" },
    );
  });
  afterAll(async () => {
    await f?.close();
    await new Promise((resolve) => target?.close(resolve));
  });
  beforeEach(async () => {
    await fetch(`${f.emulator.url}/_admin/mail/faults/reset`, { method: "POST" });
  });

  const emulatorProvider = (p: Provider) => (p === "gmail" ? "google" : "microsoft");

  async function deliver(
    to: string,
    provider: Provider,
    message: { subject: string; text?: string; headers?: Record<string, string> },
  ): Promise<Delivered> {
    const r = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${to}/messages?provider=${emulatorProvider(provider)}`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          from: { name: "Priya Shah", address: PEOPLE.priya },
          text: "Hello there",
          ...message,
        }),
      },
    );
    expect(r.status).toBe(201);
    return (await r.json()) as Delivered;
  }

  async function inMailbox(owner: string, provider: Provider, id: string): Promise<AdminMessage> {
    const r = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${owner}/messages/${id}?provider=${emulatorProvider(provider)}`,
    );
    expect(r.status).toBe(200);
    return (await r.json()) as AdminMessage;
  }

  async function sentFolder(owner: string, provider: Provider): Promise<AdminMessage[]> {
    const r = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${owner}?provider=${emulatorProvider(provider)}&label=SENT&limit=200`,
    );
    return ((await r.json()) as { messages: AdminMessage[] }).messages;
  }

  async function faults(settings: Record<string, unknown>): Promise<void> {
    const r = await fetch(`${f.emulator.url}/_admin/mail/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(settings),
    });
    expect(r.status).toBe(200);
  }

  /** Signs in and stores one delivered message as our row, the way sync would have. */
  async function userWithMail(
    provider: Provider,
    owner: string,
    count = 1,
    extra: Parameters<typeof deliver>[2] = { subject: "Hi" },
  ) {
    const token = await f.signIn(provider, owner);
    const account = await storedAccount(f.database.database, owner);
    const rows = [];
    for (let i = 0; i < count; i++) {
      const d = await deliver(owner, provider, { ...extra, subject: `${extra.subject} ${i}` });
      const row = await storeProviderEmail(
        f.database.database.db,
        { id: account.id, userId: account.userId },
        {
          providerId: provider === "gmail" ? d.id : d.graphId,
          threadId: d.threadId,
          internetMessageId: d.messageId,
          subject: `${extra.subject} ${i}`,
          fromAddress: PEOPLE.priya,
          ...(extra.headers?.["List-Unsubscribe"]
            ? { listUnsubscribe: extra.headers["List-Unsubscribe"] }
            : {}),
          ...(extra.headers?.["List-Unsubscribe-Post"]
            ? { listUnsubscribePost: extra.headers["List-Unsubscribe-Post"] }
            : {}),
        },
      );
      rows.push({ row, delivered: d });
    }
    return { token, account, rows };
  }

  /** Waits until no sync of the account runs or is queued, twice in a row 200 ms apart. */
  async function syncQuiet(accountId: string): Promise<void> {
    let quietPolls = 0;
    await vi.waitFor(
      async () => {
        const { rows } = await f.database.database.executeSql(
          `select count(*)::int as n from sync_states where account_id = $1 and status = 'idle'
             and last_synced_at is not null and queued_at is null
             and (lease_owner is null or lease_expires_at < now())`,
          [accountId],
        );
        quietPolls = (rows[0] as { n: number }).n === 1 ? quietPolls + 1 : 0;
        expect(quietPolls).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 200 },
    );
  }

  async function providerIdOf(id: string): Promise<string> {
    const { rows } = await f.database.database.executeSql("select provider_id from emails where id = $1", [
      id,
    ]);
    return (rows[0] as { provider_id: string }).provider_id;
  }

  it("Gmail: read, star, flag, archive and delete reach the mailbox", async () => {
    const { token, rows } = await userWithMail("gmail", PEOPLE.alex, 2);
    const [one, two] = rows as [(typeof rows)[0], (typeof rows)[0]];
    const patch = await f.api("PATCH", `/api/emails/${one.row.id}`, {
      token,
      body: { isRead: true, isStarred: true, isFlagged: true },
    });
    expect(patch.status).toBe(200);
    expect(emailSchema.parse(patch.json)).toMatchObject({ isRead: true, isStarred: true, isFlagged: true });
    await f.writesBack();
    const flagged = await inMailbox(PEOPLE.alex, "gmail", one.delivered.id);
    let labels = flagged.labelIds;
    expect(labels).not.toContain("UNREAD");
    expect(labels).not.toContain("IMPORTANT");
    expect(flagged.labelNames).toEqual(expect.arrayContaining(["STARRED", "Flagged by Mailwise", "INBOX"]));

    const archived = await f.api("PATCH", `/api/emails/${one.row.id}`, { token, body: { isArchived: true } });
    expect(emailSchema.parse(archived.json).isArchived).toBe(true);
    await f.writesBack();
    labels = (await inMailbox(PEOPLE.alex, "gmail", one.delivered.id)).labelIds;
    expect(labels).not.toContain("INBOX");

    const deleted = await f.api("DELETE", `/api/emails/${two.row.id}`, { token });
    expect(deleted.status).toBe(200);
    expect(emailSchema.parse(deleted.json).isArchived).toBe(false);
    await f.writesBack();
    expect((await inMailbox(PEOPLE.alex, "gmail", two.delivered.id)).labelIds).toContain("TRASH");
    const list = await f.api("GET", "/api/emails?includeArchived=true", { token });
    expect(((list.json?.emails ?? []) as Array<{ id: string }>).map((e) => e.id)).not.toContain(two.row.id);
  });

  it("bulk markRead and archive; read today counts them", async () => {
    const { token, rows } = await userWithMail("gmail", PEOPLE.sam, 3);
    const ids = rows.map((r) => r.row.id);
    const read = await f.api("POST", "/api/emails/bulk-action", {
      token,
      body: { action: "markRead", emailIds: ids },
    });
    expect(read.json).toEqual({ updated: 3 });
    await f.writesBack();
    for (const r of rows) {
      expect((await inMailbox(PEOPLE.sam, "gmail", r.delivered.id)).labelIds).not.toContain("UNREAD");
    }
    // The sign-in's sync runs beside the test: a change it fetched before the write-back can land
    // after it and is corrected by the next history event, so the counts are awaited, not sampled.
    await vi.waitFor(
      async () => {
        const stats = await f.api("GET", "/api/emails/stats", { token });
        expect(stats.json).toMatchObject({ readToday: 3, unreadCount: 0, totalEmails: 3 });
      },
      { timeout: 15_000, interval: 250 },
    );
    const archive = await f.api("POST", "/api/emails/bulk-action", {
      token,
      body: { action: "archive", emailIds: ids.slice(0, 2) },
    });
    expect(archive.json).toEqual({ updated: 2 });
    await f.writesBack();
    expect((await inMailbox(PEOPLE.sam, "gmail", rows[0]?.delivered.id ?? "")).labelIds).not.toContain(
      "INBOX",
    );
    expect((await inMailbox(PEOPLE.sam, "gmail", rows[2]?.delivered.id ?? "")).labelIds).toContain("INBOX");
    await vi.waitFor(
      async () =>
        expect((await f.api("GET", "/api/emails/stats", { token })).json).toMatchObject({ totalEmails: 1 }),
      { timeout: 15_000, interval: 250 },
    );
  });

  it("stats: the providers' inbox total is fetched in the background and summed", async () => {
    const { token } = await userWithMail("outlook", PEOPLE.casey, 0);
    await deliver(PEOPLE.casey, "outlook", { subject: "Counted by the provider" });
    const before = await f.api("GET", "/api/emails/stats", { token });
    expect(before.status).toBe(200);
    await f.server.app.mail.idle();
    const mailbox = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${PEOPLE.casey}?provider=microsoft&limit=1`,
    );
    const inbox = ((await mailbox.json()) as { labels: { INBOX: { total: number } } }).labels.INBOX.total;
    expect(inbox).toBeGreaterThan(0);
    const after = await f.api("GET", "/api/emails/stats", { token });
    expect(after.json).toMatchObject({ totalEmailsRemote: inbox });
  });

  it("Outlook: archive moves the message and re-keys our row to Graph's new id", async () => {
    const { token, rows } = await userWithMail("outlook", PEOPLE.jordan);
    const [{ row, delivered }] = rows as [(typeof rows)[0]];
    const r = await f.api("POST", "/api/emails/bulk-action", {
      token,
      body: { action: "archive", emailIds: [row.id] },
    });
    expect(r.json).toEqual({ updated: 1 });
    await f.writesBack();
    const after = await inMailbox(PEOPLE.jordan, "outlook", delivered.id);
    expect(after.folder).toBe("archive");
    expect(after.graphId).not.toBe(delivered.graphId);
    expect(await providerIdOf(row.id)).toBe(after.graphId);
    // The next action uses the new id, so it reaches the moved message.
    const read = await f.api("PATCH", `/api/emails/${row.id}`, {
      token,
      body: { isRead: true, isFlagged: true },
    });
    expect(read.status).toBe(200);
    await f.writesBack();
    expect((await inMailbox(PEOPLE.jordan, "outlook", delivered.id)).labelIds).not.toContain("UNREAD");
  });

  it("a provider failure after the answer rolls the change back and tells the person's tabs", async () => {
    const { token, rows } = await userWithMail("gmail", PEOPLE.alex, 2, { subject: "Fault" });
    const ids = rows.map((r) => r.row.id);
    const refusals: DomainEvents["email.writeRefused"][] = [];
    const stop = f.server.app.mail.events.on("email.writeRefused", (e) => void refusals.push(e));
    await faults({ errorRate: 1, provider: "google" });
    // Answered before the provider is asked (decision 0086): the change is applied here at once.
    const r = await f.api("POST", "/api/emails/bulk-action", {
      token,
      body: { action: "archive", emailIds: ids },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ updated: 2 });
    const p = await f.api("PATCH", `/api/emails/${ids[0]}`, { token, body: { isRead: true } });
    expect(p.status).toBe(200);
    await f.writesBack();
    stop();
    await faults({ errorRate: 0 });
    expect(refusals).toEqual([
      expect.objectContaining({
        // In the order the rows came back from the UPDATE, which is no particular one.
        emailIds: expect.arrayContaining(ids),
        action: "archive",
        code: "provider_unavailable",
        message: expect.stringContaining("Gmail"),
      }),
      expect.objectContaining({ emailIds: [ids[0]], action: "read", code: "provider_unavailable" }),
    ]);
    for (const id of ids) {
      const now = emailSchema.parse((await f.api("GET", `/api/emails/${id}`, { token })).json);
      expect(now).toMatchObject({ isArchived: false, isRead: false });
    }
    for (const { delivered } of rows) {
      expect((await inMailbox(PEOPLE.alex, "gmail", delivered.id)).labelIds).toEqual(
        expect.arrayContaining(["INBOX", "UNREAD"]),
      );
    }
    // The read time set by the optimistic local change went back too ("read today" is unchanged).
    const { rows: readAt } = await f.database.database.executeSql(
      "select count(*)::int as n from emails where id = any($1::uuid[]) and (read_at is not null or is_read)",
      [ids],
    );
    expect(readAt[0]).toEqual({ n: 0 });
  });

  it("a revoked grant: the change goes back and the person hears 'reconnect'; once known, 409 at once", async () => {
    const { token, account, rows } = await userWithMail("outlook", PEOPLE.casey);
    // The sign-in's first sync (this server works jobs) must be over first: one still running when
    // the grant dies notices it and marks the account, and the change below is then refused (409)
    // before anything is written, the case this test checks last.
    await syncQuiet(account.id);
    const revoke = await f.emulatorAdmin("tokens/revoke", { email: PEOPLE.casey, provider: "microsoft" });
    expect(revoke.status).toBeLessThan(300);
    // Make the stored access token look stale so the dead grant is noticed.
    await f.emulatorAdmin("tokens/expire", { email: PEOPLE.casey });
    const id = rows[0]?.row.id ?? "";
    const refusals: DomainEvents["email.writeRefused"][] = [];
    const stop = f.server.app.mail.events.on("email.writeRefused", (e) => void refusals.push(e));
    const r = await f.api("PATCH", `/api/emails/${id}`, { token, body: { isStarred: true } });
    expect(r.status).toBe(200);
    await f.writesBack();
    stop();
    expect(refusals).toEqual([expect.objectContaining({ emailIds: [id], code: "provider_reauth_required" })]);
    expect(emailSchema.parse((await f.api("GET", `/api/emails/${id}`, { token })).json).isStarred).toBe(
      false,
    );
    // An account known to need reconnecting is refused before anything changes.
    await f.database.database.executeSql(
      "update mail_accounts set status = 'reauth_required' where id = (select account_id from emails where id = $1)",
      [id],
    );
    const known = await f.api("PATCH", `/api/emails/${id}`, { token, body: { isStarred: true } });
    expect(known.status).toBe(409);
    expect(known.json?.error).toMatchObject({ code: "provider_reauth_required" });
    expect(emailSchema.parse((await f.api("GET", `/api/emails/${id}`, { token })).json).isStarred).toBe(
      false,
    );
  });

  it("send: from the account, to the sent folder, replies threaded", async () => {
    const { token, rows } = await userWithMail("gmail", PEOPLE.alex, 1, { subject: "Plans" });
    const original = rows[0]?.row;
    // Undo send off: the held mail goes at once, through the worker's sweep (server/mail/outbox/).
    await f.api("PATCH", "/api/settings/mail", { token, body: { sendDelaySeconds: 0 } });
    const sentWith = async (owner: string, provider: Provider, subject: string) => {
      for (let i = 0; i < 100; i++) {
        const found = (await sentFolder(owner, provider)).find((m) => m.subject === subject);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`"${subject}" never reached the sent folder`);
    };
    const plain = await f.api("POST", "/api/emails/send", {
      token,
      body: { to: `Priya <${PEOPLE.priya}>`, cc: "", bcc: "", subject: "Lunch tomorrow", body: "Noon?" },
    });
    expect(plain.status).toBe(200);
    expect(plain.json).toMatchObject({ success: true, outboxId: expect.any(String) });
    const reply = await f.api("POST", "/api/emails/send", {
      token,
      body: { to: PEOPLE.priya, subject: "Re: Plans 0", body: "Sounds good", inReplyToId: original?.id },
    });
    expect(reply.status).toBe(200);
    const lunch = await sentWith(PEOPLE.alex, "gmail", "Lunch tomorrow");
    expect(lunch.to).toContain(PEOPLE.priya);
    const threaded = await sentWith(PEOPLE.alex, "gmail", "Re: Plans 0");
    expect(threaded.threadId).toBe(rows[0]?.delivered.threadId);

    // Outlook: Graph's sendMail answers 202 without an id; the message lands in Sent Items.
    const jordan = await f.signIn("outlook", PEOPLE.jordan);
    await f.api("PATCH", "/api/settings/mail", { token: jordan, body: { sendDelaySeconds: 0 } });
    const viaGraph = await f.api("POST", "/api/emails/send", {
      token: jordan,
      body: { to: PEOPLE.alex, cc: PEOPLE.sam, subject: "From Outlook", body: "Hi" },
    });
    expect(viaGraph.json).toMatchObject({ success: true });
    expect((await sentWith(PEOPLE.jordan, "outlook", "From Outlook")).to).toContain(PEOPLE.alex);

    // A provider failure is kept with its reason on the held mail (and retried), not lost.
    await faults({ errorRate: 1, provider: "google" });
    const failed = await f.api("POST", "/api/emails/send", {
      token,
      body: { to: PEOPLE.priya, subject: "Will fail", body: "x" },
    });
    expect(failed.status).toBe(200);
    const outboxId = String(failed.json?.outboxId);
    let error: unknown;
    for (let i = 0; i < 100 && !error; i++) {
      error = (await f.api("GET", `/api/outbox/${outboxId}`, { token })).json?.error;
      if (!error) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(error).toEqual(expect.stringContaining("Sending"));
  });

  describe("unsubscribe", () => {
    async function settled(token: string, sender: string) {
      for (let i = 0; i < 100; i++) {
        const r = await f.api("GET", "/api/emails/unsubscribe-status", { token });
        const found = ((r.json?.requests ?? []) as unknown[])
          .map((x) => unsubscribeStatusSchema.parse(x))
          .find((s) => s.senderAddress === sender);
        if (found && found.status !== "processing") return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error("unsubscribe never settled");
    }

    it("one-click: a form POST with no cookies or authorization; status done", async () => {
      received.length = 0;
      const { token, rows } = await userWithMail("gmail", PEOPLE.priya, 1, {
        subject: "Weekly news",
        headers: {
          "List-Unsubscribe": `<http://127.0.0.1:${targetPort}/unsub?u=42>, <mailto:unsub@lists.example>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      });
      const r = await f.api("POST", "/api/emails/unsubscribe", { token, body: { emailId: rows[0]?.row.id } });
      expect(r.status).toBe(202);
      expect(r.json).toMatchObject({ method: "one_click", status: "processing" });
      const done = await settled(token, PEOPLE.priya);
      expect(done).toMatchObject({ method: "one_click", status: "done" });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ method: "POST", body: "List-Unsubscribe=One-Click" });
      expect(received[0]?.headers.cookie).toBeUndefined();
      expect(received[0]?.headers.authorization).toBeUndefined();
      expect(received[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    });

    it("one-click to a private address is refused: status failed, nothing sent", async () => {
      received.length = 0;
      const { token, rows } = await userWithMail("outlook", PEOPLE.jordan, 1, {
        subject: "Internal",
        headers: {
          "List-Unsubscribe": "<https://10.0.0.7/unsub>",
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      });
      await f.api("POST", "/api/emails/unsubscribe", { token, body: { emailId: rows[0]?.row.id } });
      const result = await settled(token, PEOPLE.priya);
      expect(result).toMatchObject({ method: "one_click", status: "failed" });
      expect(result.detail).toMatch(/non-public|address/i);
      expect(received).toHaveLength(0);
    });

    it("mailto: sent from the user's own account with the address and subject only", async () => {
      const { token, rows } = await userWithMail("gmail", PEOPLE.sam, 1, {
        subject: "Digest",
        headers: {
          "List-Unsubscribe": "<mailto:leave@lists.example?subject=remove%20me&body=ignored&cc=x@y.z>",
        },
      });
      const r = await f.api("POST", "/api/emails/unsubscribe", { token, body: { emailId: rows[0]?.row.id } });
      expect(r.json).toMatchObject({ method: "mailto", status: "processing" });
      expect(await settled(token, PEOPLE.priya)).toMatchObject({ method: "mailto", status: "done" });
      const sent = (await sentFolder(PEOPLE.sam, "gmail")).find((m) => m.subject === "remove me");
      expect(sent?.to).toContain("leave@lists.example");
      expect(sent?.to).not.toContain("x@y.z");
    });
  });
});
