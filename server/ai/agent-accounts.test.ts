import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentSchema, memoryListSchema } from "../../contract/ai.ts";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

describe.each(BACKENDS)("agent memory belongs to the person on %s", (kind) => {
  let f: AuthFixture;
  beforeAll(async () => {
    f = await startAuthFixture(kind);
  });
  afterAll(async () => {
    await f?.close();
  });

  it("keeps the agent and its memories when a new work account replaces the old one", async () => {
    const token = await f.signIn("gmail", PEOPLE.alex);
    const user = await f.sessionUser(token);
    const created = await f.api("POST", "/api/agent", { token, body: { name: "Ada" } });
    expect(created.status).toBe(201);
    await f.server.app.ai.memories.learn(user.id, [
      {
        kind: "contact",
        key: "boss@acme.com",
        content: "You reply to Boss <boss@acme.com>",
        source: "reply",
      },
    ]);
    // Connect the new job's Outlook account, then disconnect the old Gmail one.
    // Linking answers a new session and ends the one that started it.
    const linked = await f.signIn("outlook", PEOPLE.jordan, { token });
    const accounts = (await f.api("GET", "/api/accounts", { token: linked })).json as {
      accounts: Array<{ id: string; email: string }>;
    };
    const old = accounts.accounts.find((a) => a.email === PEOPLE.alex);
    expect(old).toBeDefined();
    expect((await f.api("DELETE", `/api/accounts/${old?.id}`, { token: linked })).status).toBeLessThan(300);

    const memories = memoryListSchema.parse(
      (await f.api("GET", "/api/agent/memories", { token: linked })).json,
    );
    expect(memories.memories.map((m) => m.content)).toContain("You reply to Boss <boss@acme.com>");
    expect(agentSchema.parse((await f.api("GET", "/api/agent", { token: linked })).json).name).toBe("Ada");
  });
});

describe.each(BACKENDS)("agent auto-draft after sync on %s", (kind) => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture(kind);
  });
  afterAll(async () => {
    await f?.close();
  });

  it("analyses synced mail, drafts replies in the mailbox, and auto-sends only to VIPs", async () => {
    const { token, accountId, userId } = await f.signIn("gmail", PEOPLE.alex);
    const r = await fetch(`${f.url}/api/agent`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "Ada",
        preferences: {
          email_signature: "Alex",
          vip_contacts: ["vip@client.example"],
          email_behavior: { auto_draft: true, auto_send: true, ignore_categories: ["Newsletters"] },
        },
      }),
    });
    expect(r.status).toBe(201);
    const enc = encodeURIComponent(PEOPLE.alex);
    const add = (from: string, subject: string, text: string) =>
      f.admin("POST", `mailboxes/${enc}/messages`, {
        from: { name: "Pat Client", address: from },
        subject,
        text,
      });
    await add("vip@client.example", "Proposal", "Could you send me the signed proposal by Friday?");
    await add(
      "colleague@partner.example",
      "Review",
      "Can you review the draft contract? Please let me know.",
    );
    await add("news@digest.example", "Weekly newsletter", "Our weekly newsletter digest. Unsubscribe here.");
    await f.services.sync.service.requestSync(accountId, "manual");

    const rows = await waitUntil(
      async () => {
        const all = await f.rows(accountId);
        return all.length >= 3 && all.every((row) => row.aiAnalysis) ? all : undefined;
      },
      20_000,
      "analysed rows",
    );
    const news = rows.find((row) => row.fromAddress === "news@digest.example");
    expect(news?.aiAnalysis).toMatchObject({ skipped: "ignored_category" });

    const mailbox = await waitUntil(
      async () => {
        const messages = await f.mailbox(PEOPLE.alex);
        const drafts = messages.filter((m) => m.labelIds.includes("DRAFT"));
        const sent = messages.filter((m) => m.labelIds.includes("SENT"));
        return drafts.length >= 1 && sent.length >= 1 ? { drafts, sent } : undefined;
      },
      20_000,
      "agent draft and sent reply",
    );
    expect(mailbox.drafts.map((m) => m.subject)).toEqual(["Re: Review"]);
    expect(mailbox.sent.map((m) => m.subject)).toEqual(["Re: Proposal"]);
    const sentList = await fetch(`${f.url}/api/agent/sent-replies`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await sentList.json()) as { replies: Array<{ to: string; subject: string }> };
    expect(body.replies).toEqual([
      expect.objectContaining({ to: "vip@client.example", subject: "Re: Proposal" }),
    ]);
    expect(userId).toBeTruthy();
  });
});
