import type { gmail_v1 } from "@googleapis/gmail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CONVERSATION_SUBJECT } from "../mailbox/conversation-seed.ts";
import { accessTokenFor } from "../mailbox/mail-test-support.ts";
import type { RunningEmulator } from "../server.ts";
import { startTestEmulator } from "../test-support.ts";

const SAM = "sam.taylor@gmail.com";
const CASEY = "casey.kim@outlook.com";
let emu: RunningEmulator;

async function get(url: string, token: string) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function add(owner: string, provider: "google" | "microsoft", body: Record<string, unknown>) {
  const response = await fetch(`${emu.url}/_admin/mailboxes/${owner}/messages?provider=${provider}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { id: string; threadId: string; messageId: string; graphId: string };
}

/** A thread of three (received, sent, received) and one single message, in `owner`'s mailbox. */
async function thread(owner: string, provider: "google" | "microsoft", subject: string) {
  const from = { name: "Priya Shah", address: "priya.shah@gmail.com" };
  const t0 = Date.parse("2026-11-01T10:00:00Z");
  const a = await add(owner, provider, {
    from,
    subject,
    text: "one",
    internalDate: t0,
    labelIds: ["CATEGORY_PERSONAL"],
  });
  const b = await add(owner, provider, {
    from: { address: owner },
    subject: `Re: ${subject}`,
    text: "two",
    headers: { "In-Reply-To": a.messageId },
    labelIds: ["SENT"],
    internalDate: t0 + 60_000,
  });
  const c = await add(owner, provider, {
    from,
    subject: `Re: ${subject}`,
    text: "three",
    headers: { "In-Reply-To": b.messageId, References: `${a.messageId} ${b.messageId}` },
    internalDate: t0 + 120_000,
  });
  const single = await add(owner, provider, {
    from,
    subject: "Single",
    text: "alone",
    internalDate: t0 + 30_000,
  });
  return { a, b, c, single };
}

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

describe("Gmail threads", () => {
  it("threads.get answers the thread oldest first in the asked format; 404 for an unknown one", async () => {
    const token = await accessTokenFor(emu, "google", SAM);
    const { a, b, c } = await thread(SAM, "google", "Plan");
    const base = `${emu.url}/gmail.googleapis.com/gmail/v1/users/me`;
    const got = await get(`${base}/threads/${a.threadId}?format=full`, token);
    expect(got.status).toBe(200);
    const t = got.body as gmail_v1.Schema$Thread;
    expect(t.id).toBe(a.threadId);
    expect(t.messages?.map((m) => m.id)).toEqual([a.id, b.id, c.id]);
    expect(t.messages?.[1]?.labelIds).toContain("SENT");
    expect(t.messages?.[0]?.payload?.headers?.length).toBeGreaterThan(0);
    expect(t.historyId).toBe(String(Math.max(...(t.messages ?? []).map((m) => Number(m.historyId)))));
    expect(typeof t.snippet).toBe("string");
    const minimal = (await get(`${base}/threads/${a.threadId}?format=minimal`, token))
      .body as gmail_v1.Schema$Thread;
    expect(minimal.messages?.[0]?.payload).toBeUndefined();
    expect((await get(`${base}/threads/ffff0000ffff0000`, token)).status).toBe(404);
    expect((await get(`${base}/threads/${a.threadId}?format=raw`, token)).status).toBe(400);
  });

  it("threads.list lists each thread once at its newest match, newest first, across pages", async () => {
    const token = await accessTokenFor(emu, "google", SAM);
    const { a, single } = await thread(SAM, "google", "Listing");
    const base = `${emu.url}/gmail.googleapis.com/gmail/v1/users/me`;
    const q = encodeURIComponent("subject:listing OR subject:single");
    const all = (await get(`${base}/threads?q=${q}`, token)).body as gmail_v1.Schema$ListThreadsResponse;
    const ids = (all.threads ?? []).map((t) => t.id);
    expect(ids.slice(0, 2)).toEqual([a.threadId, single.threadId]);
    expect(new Set(ids).size).toBe(ids.length);
    // Page by one: the same threads, each once.
    const paged: string[] = [];
    let pageToken: string | undefined;
    for (let i = 0; i < 20; i += 1) {
      const page = (
        await get(`${base}/threads?maxResults=1&q=${q}${pageToken ? `&pageToken=${pageToken}` : ""}`, token)
      ).body as gmail_v1.Schema$ListThreadsResponse;
      paged.push(...(page.threads ?? []).map((t) => t.id ?? ""));
      pageToken = page.nextPageToken ?? undefined;
      if (!pageToken) break;
    }
    expect(paged).toEqual(ids);
    // In the inbox, the thread is listed by its inbox message only.
    const inbox = (await get(`${base}/threads?labelIds=INBOX&q=${q}`, token))
      .body as gmail_v1.Schema$ListThreadsResponse;
    expect(inbox.threads?.map((t) => t.id)).toContain(a.threadId);
  });
});

describe("the seeded conversation", () => {
  it("each seeded mailbox holds a three-message conversation with the person's reply and an archived message", async () => {
    for (const [provider, owner] of [
      ["google", SAM],
      ["microsoft", CASEY],
    ] as const) {
      const token = await accessTokenFor(emu, "google", provider === "google" ? owner : SAM);
      const list = await fetch(`${emu.url}/_admin/mailboxes/${owner}?provider=${provider}&limit=500`).then(
        (r) =>
          r.json() as Promise<{
            messages: Array<{ id: string; threadId: string; subject: string; labelIds: string[] }>;
          }>,
      );
      const offsite = list.messages.filter((m) => m.subject.endsWith(DEMO_CONVERSATION_SUBJECT));
      expect(offsite).toHaveLength(3);
      expect(new Set(offsite.map((m) => m.threadId)).size).toBe(1);
      const labels = offsite.map((m) => m.labelIds);
      expect(labels.filter((l) => l.includes("SENT"))).toHaveLength(1);
      expect(labels.filter((l) => l.includes("INBOX"))).toHaveLength(1);
      if (provider === "google") {
        const t = (
          await get(
            `${emu.url}/gmail.googleapis.com/gmail/v1/users/me/threads/${offsite[0]?.threadId}?format=minimal`,
            token,
          )
        ).body as gmail_v1.Schema$Thread;
        expect(t.messages).toHaveLength(3);
      }
    }
  });
});

describe("Graph messages by conversationId", () => {
  it("filters by conversationId across folders; an $orderby the filter does not start with is InefficientFilter", async () => {
    const token = await accessTokenFor(emu, "microsoft", CASEY);
    const { c } = await thread(CASEY, "microsoft", "Graph plan");
    const root = `${emu.url}/graph.microsoft.com/v1.0/me`;
    const one = (await get(`${root}/messages/${c.graphId}?$select=conversationId`, token)).body as {
      conversationId: string;
    };
    const filter = encodeURIComponent(`conversationId eq '${one.conversationId}'`);
    const found = await get(`${root}/messages?$filter=${filter}&$select=subject,parentFolderId`, token);
    expect(found.status).toBe(200);
    const value = found.body.value as Array<{ subject: string }>;
    expect(value.map((m) => m.subject).sort()).toEqual(["Graph plan", "Re: Graph plan", "Re: Graph plan"]);
    const ordered = await get(`${root}/messages?$filter=${filter}&$orderby=receivedDateTime desc`, token);
    expect(ordered.status).toBe(400);
    expect(ordered.body).toMatchObject({ error: { code: "InefficientFilter" } });
  });
});
