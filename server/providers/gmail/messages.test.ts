import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/server.ts";
import { startTestEmulator } from "../../../emulator/test-support.ts";
import { connectTestAccount, emulatorAdmin } from "../../test/provider-accounts.ts";
import type { ProviderHttp, ProviderRequest } from "../http/client.ts";
import { createGmailContext, type GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { fetchMessages, getMessage, listMessages } from "./messages.ts";

/**
 * Quota accounting of big body parts: every attachments.get the adapter makes is spent from the
 * account's bucket at its published cost (5 units), in the batch or as a plain GET, so the
 * bucket and Google's count stay the same.
 */

const EMAIL = "quota.bodies@gmail.com";
const BIG = "A line of a long log, repeated until the part leaves format=full.\n".repeat(5_000);

let emulator: RunningEmulator;
let admin: ReturnType<typeof emulatorAdmin>;
let ctx: GmailContext;
/** Quota units of each HTTP request the adapter made, in order (a batch counts as one). */
const spent: number[] = [];

function recording(http: ProviderHttp): ProviderHttp {
  const note = (request: ProviderRequest) => spent.push(request.weight ?? 0);
  return {
    token: http.token,
    retry: http.retry,
    request: (request) => {
      note(request);
      return http.request(request);
    },
    stream: (request) => {
      note(request);
      return http.stream(request);
    },
    json: <T>(request: ProviderRequest) => {
      note(request);
      return http.json<T>(request);
    },
  };
}

const deliver = (body: Record<string, unknown>) =>
  admin<{ id: string }>("POST", `mailboxes/${EMAIL}/messages?provider=google`, {
    from: { name: "Logs", address: "logs@corp.example" },
    ...body,
  });

beforeAll(async () => {
  emulator = await startTestEmulator();
  admin = emulatorAdmin(emulator);
  emulator.control.addIdentity({ provider: "google", email: EMAIL, name: "Quota Bodies" });
  const tokens = await connectTestAccount(emulator, "google", EMAIL);
  ctx = createGmailContext({
    baseUrl: `${emulator.url}/gmail.googleapis.com`,
    accountKey: `gmail:quota-${randomUUID()}`,
    token: (options) => tokens.getAccessToken("user", "account", options),
    pushTopic: "projects/mailwise/topics/gmail",
    retry: { maxAttempts: 1 },
  });
  ctx.http = recording(ctx.http);
});

afterAll(async () => {
  await emulator?.close();
});

describe("Gmail big body parts and quota", () => {
  it("getMessage spends messages.get plus one attachments.get per big body part", async () => {
    const textOnly = await deliver({ subject: "Text only", text: BIG });
    const both = await deliver({ subject: "Both", text: BIG, html: `<pre>${BIG}</pre>` });
    const small = await deliver({ subject: "Small", text: "short" });

    spent.length = 0;
    expect((await getMessage(ctx, textOnly.id))?.bodyText?.trimEnd()).toBe(
      BIG.trimEnd().replace(/\n/g, "\r\n"),
    );
    // The first mapping also looks up the mailbox's flag label once (labels.list, 1 unit); the
    // answer "none yet" is then kept for a minute.
    expect(spent).toEqual([GMAIL_COSTS.messagesGet, GMAIL_COSTS.attachmentsGet, GMAIL_COSTS.labelsList]);

    spent.length = 0;
    const message = await getMessage(ctx, both.id);
    expect(message?.bodyHtml?.startsWith("<pre>A line")).toBe(true);
    expect(message?.bodyText?.length).toBeGreaterThan(256 * 1024);
    expect(spent).toEqual([GMAIL_COSTS.messagesGet, GMAIL_COSTS.attachmentsGet, GMAIL_COSTS.attachmentsGet]);

    spent.length = 0;
    await getMessage(ctx, small.id);
    expect(spent).toEqual([GMAIL_COSTS.messagesGet]);
  });

  it("a page fetches its big parts in one more batch, charged 5 units a part", async () => {
    const ids = [
      (await deliver({ subject: "Page big 1", text: BIG })).id,
      (await deliver({ subject: "Page small", text: "short" })).id,
      (await deliver({ subject: "Page big 2", text: BIG, html: `<pre>${BIG}</pre>` })).id,
    ];
    spent.length = 0;
    const fetched = await fetchMessages(ctx, ids);
    expect([...fetched.values()].every((m) => m !== null)).toBe(true);
    expect(spent).toEqual([3 * GMAIL_COSTS.messagesGet, 3 * GMAIL_COSTS.attachmentsGet]);

    spent.length = 0;
    const page = await listMessages(ctx, { pageSize: 3 });
    expect(page.messages.map((m) => m.subject)).toEqual(["Page big 2", "Page small", "Page big 1"]);
    expect(page.messages.every((m) => (m.bodyText?.length ?? 0) > 0)).toBe(true);
    // The first page also reads the inbox label's total for the progress banner (labels.get).
    expect(spent).toEqual([
      GMAIL_COSTS.messagesList,
      GMAIL_COSTS.labelsGet,
      3 * GMAIL_COSTS.messagesGet,
      3 * GMAIL_COSTS.attachmentsGet,
    ]);
  });

  it("a message deleted between the get and attachments.get keeps a null body, no failure", async () => {
    const gone = await deliver({ subject: "Going", text: BIG });
    const kept = await deliver({ subject: "Staying", text: BIG });
    // Delete it as soon as the message batch has answered, before the part batch runs.
    const inner = ctx.http;
    let calls = 0;
    ctx.http = {
      ...inner,
      request: async (request) => {
        const answer = await inner.request(request);
        calls += 1;
        if (calls === 1) await admin("DELETE", `mailboxes/${EMAIL}/messages/${gone.id}?provider=google`);
        return answer;
      },
    };
    try {
      const fetched = await fetchMessages(ctx, [gone.id, kept.id]);
      expect(fetched.get(gone.id)?.bodyText).toBeNull();
      expect(fetched.get(kept.id)?.bodyText?.length).toBeGreaterThan(256 * 1024);
    } finally {
      ctx.http = inner;
    }
  });
});
