import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPOSE_RECIPIENTS_MAX } from "../../contract/compose.ts";
import { accountSignatureSchema } from "../../contract/signatures.ts";
import { storedAccount } from "../test/auth-db.ts";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { createEmail } from "../test/factories.ts";

type Provider = "gmail" | "outlook";
interface AdminMessage {
  id: string;
  graphId: string;
  threadId: string;
  labelIds: string[];
  to: string;
  subject: string;
  messageId: string;
  raw?: string;
}

/**
 * Issue 36 against a real server and the emulator, on both providers: Reply all's Cc and a
 * forward arrive threaded (Gmail threadId + In-Reply-To/References; Graph createReplyAll /
 * createForward keep the conversation), header injection and too many recipients are refused
 * before anything is sent, and signatures are the signed-in person's own.
 */
describe.each(BACKENDS)("writing mail: reply all, forward, bad input, signatures on %s", (kind) => {
  let f: AuthFixture;
  beforeAll(async () => {
    f = await startAuthFixture(kind, {}, { seedCorpus: false });
  });
  afterAll(async () => {
    await f?.close();
  });

  const emulatorProvider = (p: Provider) => (p === "gmail" ? "google" : "microsoft");

  async function mailbox(owner: string, provider: Provider, label: string): Promise<AdminMessage[]> {
    const r = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${owner}?provider=${emulatorProvider(provider)}&label=${label}&limit=200`,
    );
    return ((await r.json()) as { messages: AdminMessage[] }).messages;
  }

  async function message(owner: string, provider: Provider, id: string): Promise<AdminMessage> {
    const r = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${owner}/messages/${id}?provider=${emulatorProvider(provider)}`,
    );
    expect(r.status).toBe(200);
    return (await r.json()) as AdminMessage;
  }

  /** Priya writes to `owner` and Sam, copying `cc`; stored as our row the way sync would. */
  async function received(owner: string, provider: Provider, subject: string, cc: string) {
    const token = await f.signIn(provider, owner);
    // Sends go out at once: these tests are about what arrives, not Undo send (outbox-api.test.ts).
    await f.api("PATCH", "/api/settings/mail", { token, body: { sendDelaySeconds: 0 } });
    const account = await storedAccount(f.database.database, owner);
    const messageId = `<${subject.replace(/\W/g, "")}.${Date.now()}@gmail.com>`;
    const raw = [
      `From: Priya Shah <${PEOPLE.priya}>`,
      `To: ${owner}, Sam <${PEOPLE.sam}>`,
      `Cc: ${cc}`,
      `Subject: ${subject}`,
      `Message-ID: ${messageId}`,
      `Date: ${new Date().toUTCString()}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "The numbers are in.",
    ].join("\r\n");
    const r = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${owner}/messages?provider=${emulatorProvider(provider)}`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ raw }) },
    );
    expect(r.status).toBe(201);
    const delivered = (await r.json()) as AdminMessage;
    const row = await createEmail(
      f.database.database.db,
      { id: account.id, userId: account.userId },
      {
        providerId: provider === "gmail" ? delivered.id : delivered.graphId,
        threadId: delivered.threadId,
        internetMessageId: messageId,
        subject,
        fromAddress: PEOPLE.priya,
      },
    );
    return { token, account, row, delivered, messageId };
  }

  const sentWith = async (owner: string, provider: Provider, subject: string) => {
    const found = (await mailbox(owner, provider, "SENT")).find((m) => m.subject === subject);
    expect(found, `"${subject}" in ${owner}'s sent mail`).toBeDefined();
    return message(owner, provider, found?.id ?? "");
  };

  for (const provider of ["gmail", "outlook"] as const) {
    const owner = provider === "gmail" ? PEOPLE.alex : PEOPLE.jordan;
    const copied = provider === "gmail" ? PEOPLE.jordan : PEOPLE.alex;
    const copiedProvider: Provider = provider === "gmail" ? "outlook" : "gmail";

    it(`${provider}: Reply all's Cc arrives, threaded in the original's conversation`, async () => {
      const subject = `Quarterly ${provider} ${kind}`;
      const { token, row, delivered, messageId } = await received(
        owner,
        provider,
        subject,
        `Dee <${copied}>`,
      );
      const r = await f.api("POST", "/api/emails/send", {
        token,
        body: {
          to: `Priya Shah <${PEOPLE.priya}>, Sam <${PEOPLE.sam}>`,
          cc: copied,
          bcc: "",
          subject: `Re: ${subject}`,
          body: "Thanks, all.",
          inReplyToId: row.id,
          mode: "replyAll",
        },
      });
      expect(r.status, r.text).toBe(200);
      const sent = await sentWith(owner, provider, `Re: ${subject}`);
      // Same Gmail thread / Graph conversation (the emulator's conversationId is the thread's).
      expect(sent.threadId).toBe(delivered.threadId);
      expect(sent.raw).toMatch(new RegExp(`^In-Reply-To: ${messageId}`, "m"));
      expect(sent.raw).toMatch(new RegExp(`^References: .*${messageId}`, "m"));
      expect(sent.raw).toMatch(new RegExp(`^Cc: .*${copied}`, "mi"));
      // What arrived: the copied person's mailbox got it, with the Cc header.
      const inbox = (await mailbox(copied, copiedProvider, "INBOX")).find(
        (m) => m.subject === `Re: ${subject}`,
      );
      expect(inbox).toBeDefined();
      const arrived = await message(copied, copiedProvider, inbox?.id ?? "");
      expect(arrived.raw).toMatch(new RegExp(`^Cc: .*${copied}`, "mi"));
      expect(arrived.raw).toMatch(new RegExp(`^To: .*${PEOPLE.priya}.*`, "mi"));
      // Graph made a reply-all draft, then sent it: nothing is left in Drafts.
      if (provider === "outlook") expect(await mailbox(owner, provider, "DRAFT")).toEqual([]);
    });

    it(`${provider}: a forward arrives with its subject and header block, threaded`, async () => {
      const subject = `Contract ${provider} ${kind}`;
      const { token, row, delivered, messageId } = await received(owner, provider, subject, PEOPLE.casey);
      const body = [
        "FYI",
        "",
        "---------- Forwarded message ---------",
        `From: Priya Shah <${PEOPLE.priya}>`,
        "Date: Sunday",
        `Subject: ${subject}`,
        `To: ${owner}`,
        "",
        "The numbers are in.",
      ].join("\n");
      const r = await f.api("POST", "/api/emails/send", {
        token,
        body: {
          to: PEOPLE.sam,
          cc: "",
          bcc: "",
          subject: `Fwd: ${subject}`,
          body,
          inReplyToId: row.id,
          mode: "forward",
        },
      });
      expect(r.status, r.text).toBe(200);
      const sent = await sentWith(owner, provider, `Fwd: ${subject}`);
      expect(sent.threadId).toBe(delivered.threadId);
      expect(sent.raw).toMatch(new RegExp(`^In-Reply-To: ${messageId}`, "m"));
      const inbox = (await mailbox(PEOPLE.sam, "gmail", "INBOX")).find(
        (m) => m.subject === `Fwd: ${subject}`,
      );
      expect(inbox).toBeDefined();
      const arrived = await message(PEOPLE.sam, "gmail", inbox?.id ?? "");
      const text = arrived.raw ?? "";
      const decoded = /Content-Transfer-Encoding: base64/i.test(text)
        ? Buffer.from(
            text
              .split(/\r?\n\r?\n/)
              .slice(1)
              .join("")
              .replace(/\s+/g, ""),
            "base64",
          ).toString("utf8")
        : text;
      expect(decoded).toContain("---------- Forwarded message ---------");
      expect(decoded).toContain(`Subject: ${subject}`);
    });
  }

  it("refuses CR/LF in a subject or a display name with validation_failed naming the field, sending nothing", async () => {
    const token = await f.signIn("gmail", PEOPLE.sam);
    const before = (await mailbox(PEOPLE.sam, "gmail", "SENT")).length;
    const subject = await f.api("POST", "/api/emails/send", {
      token,
      body: { to: PEOPLE.priya, subject: "Hello\r\nBcc: evil@attacker.example", body: "x" },
    });
    expect(subject.status).toBe(400);
    expect(subject.json?.error).toMatchObject({
      code: "validation_failed",
      fields: { subject: expect.any(String) },
    });
    const name = await f.api("POST", "/api/emails/send", {
      token,
      body: { to: `"Priya\r\nBcc: evil@attacker.example" <${PEOPLE.priya}>`, subject: "Hi", body: "x" },
    });
    expect(name.status).toBe(400);
    expect(name.json?.error).toMatchObject({ code: "validation_failed", fields: { to: expect.any(String) } });
    const lf = await f.api("POST", "/api/emails/send", {
      token,
      body: { to: PEOPLE.priya, cc: `Eve\nBcc: x@y.io <${PEOPLE.alex}>`, subject: "Hi", body: "x" },
    });
    expect(lf.status).toBe(400);
    expect(lf.json?.error).toMatchObject({ code: "validation_failed", fields: { cc: expect.any(String) } });
    expect((await mailbox(PEOPLE.sam, "gmail", "SENT")).length).toBe(before);
  });

  it("refuses 1,000 recipients with a clear 400, sending nothing", async () => {
    const token = await f.signIn("gmail", PEOPLE.sam);
    const before = (await mailbox(PEOPLE.sam, "gmail", "SENT")).length;
    const many = Array.from({ length: 1000 }, (_, i) => `person${i}@example.com`);
    const r = await f.api("POST", "/api/emails/send", {
      token,
      body: { to: many.slice(0, 600).join(", "), cc: many.slice(600).join(", "), subject: "All", body: "x" },
    });
    expect(r.status).toBe(400);
    expect(r.json?.error).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining(`at most ${COMPOSE_RECIPIENTS_MAX}`),
    });
    expect((await mailbox(PEOPLE.sam, "gmail", "SENT")).length).toBe(before);
  });

  it("signatures: each account its own, sanitized; another person's account is 404", async () => {
    const mine = await f.signIn("gmail", PEOPLE.priya);
    const account = await storedAccount(f.database.database, PEOPLE.priya);
    const put = await f.api("PUT", `/api/accounts/${account.id}/signature`, {
      token: mine,
      body: { html: '<b>Priya</b><br>Ops<script>alert(1)</script><a href="javascript:x()">x</a>' },
    });
    expect(put.status, put.text).toBe(200);
    const saved = accountSignatureSchema.parse(put.json);
    expect(saved.html).toBe("<b>Priya</b><br>Ops<a>x</a>");
    expect(saved.text).toContain("Priya");
    expect(saved.text).not.toContain("alert");
    const read = await f.api("GET", `/api/accounts/${account.id}/signature`, { token: mine });
    expect(accountSignatureSchema.parse(read.json)).toEqual(saved);

    const other = await f.signIn("outlook", PEOPLE.casey);
    const theirs = await f.api("GET", `/api/accounts/${account.id}/signature`, { token: other });
    expect(theirs.status).toBe(404);
    expect(theirs.json?.error).toMatchObject({ code: "not_found" });
    const overwrite = await f.api("PUT", `/api/accounts/${account.id}/signature`, {
      token: other,
      body: { html: "pwned" },
    });
    expect(overwrite.status).toBe(404);
    const still = await f.api("GET", `/api/accounts/${account.id}/signature`, { token: mine });
    expect(accountSignatureSchema.parse(still.json).html).toBe(saved.html);
    const tooLong = await f.api("PUT", `/api/accounts/${account.id}/signature`, {
      token: mine,
      body: { html: "x".repeat(20_000) },
    });
    expect(tooLong.status).toBe(400);
  });
});
