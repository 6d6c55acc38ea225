import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversationListResponseSchema, conversationSchema } from "../../../contract/conversations.ts";
import { emails } from "../../db/schema.ts";
import { storedAccount } from "../../test/auth-db.ts";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../../test/auth-fixture.ts";
import { BACKENDS } from "../../test/databases.ts";
import { waitUntil } from "../../test/sync-fixture.ts";

type Provider = "gmail" | "outlook";
interface Delivered {
  id: string;
  threadId: string;
  messageId: string;
}

/**
 * A conversation in the emulator's mailbox, through sign-in and sync: read whole (what sync did not
 * store is fetched with Gmail threads.get / Graph's conversationId filter) and acted on whole.
 */
describe.each(BACKENDS)("conversations against the emulator on %s", (kind) => {
  let f: AuthFixture;
  beforeAll(async () => {
    // The write deadline's own path (pending, then settled from the provider) has its tests; on a
    // loaded CI machine a move could outlast the 5 s default and be settled back, which is not
    // what this test is about.
    f = await startAuthFixture(
      kind,
      { PROVIDER_WRITE_TIMEOUT_MS: "30000" },
      { seedCorpus: false },
      { role: "all" },
    );
  });
  afterAll(async () => {
    await f?.close();
  });

  const emulatorProvider = (p: Provider) => (p === "gmail" ? "google" : "microsoft");

  async function deliver(
    owner: string,
    provider: Provider,
    body: Record<string, unknown>,
  ): Promise<Delivered> {
    const r = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${owner}/messages?provider=${emulatorProvider(provider)}`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    );
    expect(r.status).toBe(201);
    return (await r.json()) as Delivered;
  }

  async function labels(owner: string, provider: Provider, id: string): Promise<string[]> {
    const r = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${owner}/messages/${id}?provider=${emulatorProvider(provider)}`,
    );
    return ((await r.json()) as { labelIds: string[] }).labelIds;
  }

  it.each([
    ["gmail", PEOPLE.sam],
    ["outlook", PEOPLE.casey],
  ] as const)(
    "%s: one row 'Priya, me (3)', read whole, archived, restored and deleted whole",
    async (provider, owner) => {
      const token = await f.signIn(provider, owner);
      // Write-backs that did not simply succeed, named in the failures below.
      const unsettled: string[] = [];
      const stops = [
        f.server.app.mail.events.on(
          "email.writePending",
          (e) => void unsettled.push(`pending ${e.emailIds}`),
        ),
        f.server.app.mail.events.on(
          "email.writeRefused",
          (e) => void unsettled.push(`refused ${e.action}: ${e.message}`),
        ),
      ];
      const account = await storedAccount(f.database.database, owner);
      const now = Date.now();
      const priya = { name: "Priya Shah", address: PEOPLE.priya };
      const first = await deliver(owner, provider, {
        from: priya,
        subject: "Budget review",
        text: "Can we review the budget?",
        labelIds: ["CATEGORY_PERSONAL"],
        internalDate: now - 3 * 60_000,
      });
      const reply = await deliver(owner, provider, {
        from: { name: "Me", address: owner },
        subject: "Re: Budget review",
        text: "Yes, Thursday works.",
        headers: { "In-Reply-To": first.messageId, References: first.messageId },
        labelIds: ["SENT"],
        internalDate: now - 2 * 60_000,
      });
      const last = await deliver(owner, provider, {
        from: priya,
        subject: "Re: Budget review",
        text: "Thursday it is.",
        headers: { "In-Reply-To": reply.messageId, References: `${first.messageId} ${reply.messageId}` },
        internalDate: now - 60_000,
      });
      expect(new Set([first.threadId, reply.threadId, last.threadId]).size).toBe(1);

      await f.api("POST", "/api/emails/auto-sync", { token });
      const row = await waitUntil(
        async () => {
          const r = await f.api("GET", "/api/emails?view=conversations", { token });
          const page = conversationListResponseSchema.parse(r.json);
          return page.emails.find((e) => e.subject === "Re: Budget review");
        },
        30_000,
        "the newest message synced",
      );

      // Opening it fetches what sync did not store (Outlook syncs the inbox only).
      const opened = await f.api("GET", `/api/conversations/${row.conversationId}`, { token });
      expect(opened.status).toBe(200);
      const conversation = conversationSchema.parse(opened.json);
      expect(conversation.subject).toBe("Budget review");
      expect(conversation.messages.map((m) => m.bodyText?.trim())).toEqual([
        "Can we review the budget?",
        "Yes, Thursday works.",
        "Thursday it is.",
      ]);
      expect(conversation.messages.map((m) => m.conversationId)).toEqual(Array(3).fill(row.conversationId));

      const listed = conversationListResponseSchema.parse(
        (await f.api("GET", "/api/emails?view=conversations", { token })).json,
      );
      const summary = listed.emails.find((e) => e.conversationId === row.conversationId)?.conversation;
      expect(summary).toMatchObject({ count: 3, participants: "Priya, me (3)", unread: true });
      expect(account.userId).toBeTruthy();

      const read = await f.api("PATCH", `/api/conversations/${row.conversationId}`, {
        token,
        body: { isRead: true },
      });
      expect(read.status).toBe(200);
      await f.writesBack();
      expect(conversationSchema.parse(read.json).messages.every((m) => m.isRead)).toBe(true);
      expect(await labels(owner, provider, last.id)).not.toContain("UNREAD");

      const archived = await f.api("PATCH", `/api/conversations/${row.conversationId}`, {
        token,
        body: { isArchived: true },
      });
      expect(archived.status).toBe(200);
      await f.writesBack();
      expect(await labels(owner, provider, last.id)).not.toContain("INBOX");
      expect(await labels(owner, provider, reply.id)).toContain("SENT");

      const restored = await f.api("PATCH", `/api/conversations/${row.conversationId}`, {
        token,
        body: { isArchived: false },
      });
      expect(restored.status).toBe(200);
      await f.writesBack();
      expect(await labels(owner, provider, first.id)).toContain("INBOX");
      expect(await labels(owner, provider, last.id)).toContain("INBOX");
      // The person's own reply stays sent mail.
      expect(await labels(owner, provider, reply.id)).not.toContain("INBOX");

      const before = await f.database.database.db
        .select({ providerId: emails.providerId, inInbox: emails.inInbox, isTrashed: emails.isTrashed })
        .from(emails)
        .where(eq(emails.conversationId, row.conversationId));
      unsettled.push(`rows before the delete: ${JSON.stringify(before)}`);
      const deleted = await f.api("DELETE", `/api/conversations/${row.conversationId}`, { token });
      expect(deleted.status).toBe(200);
      await f.writesBack();
      for (const m of [first, reply, last])
        expect(await labels(owner, provider, m.id), unsettled.join("; ")).toContain("TRASH");
      // A sync page fetched before the delete and stored after it can bring a message back under
      // its pre-move id (Graph gives moved mail a new one); the delete's follow-up sync removes it.
      await waitUntil(
        async () => {
          const after = conversationListResponseSchema.parse(
            (await f.api("GET", "/api/emails?view=conversations&includeArchived=true", { token })).json,
          );
          return !after.emails.some((e) => e.conversationId === row.conversationId);
        },
        30_000,
        "the deleted conversation gone from the list",
      );
      for (const stop of stops) stop();
    },
    90_000,
  );
});
