import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_DRAFT_SUBJECT } from "../mailbox/draft-seed.ts";
import { accessTokenFor } from "../mailbox/mail-test-support.ts";
import type { RunningEmulator } from "../server.ts";
import { startTestEmulator } from "../test-support.ts";

const ALEX = "alex.morgan@gmail.com";
const PRIYA = "priya.shah@gmail.com";
let emu: RunningEmulator;
let token: string;
type Json = Record<string, unknown>;

async function call(path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${emu.url}/gmail.googleapis.com/gmail/v1/users/me${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Json };
}

async function inbox(email: string, label: string): Promise<Json[]> {
  const response = await fetch(`${emu.url}/_admin/mailboxes/${email}?label=${label}&limit=200`);
  return ((await response.json()) as { messages: Json[] }).messages;
}

const raw = (subject: string, to = PRIYA) =>
  Buffer.from(`To: ${to}\r\nSubject: ${subject}\r\n\r\nBody of ${subject}`).toString("base64url");

beforeAll(async () => {
  emu = await startTestEmulator();
  token = await accessTokenFor(emu, "google", ALEX);
});
afterAll(() => emu.close());

describe("Gmail users.drafts", () => {
  it("updates a draft under the same draft id with a new message, as Gmail does", async () => {
    const created = await call("/drafts", { method: "POST", body: { message: { raw: raw("First") } } });
    expect(created.status).toBe(200);
    const draft = created.body as { id: string; message: { id: string; labelIds: string[] } };
    expect(draft.message.labelIds).toEqual(["DRAFT"]);
    const updated = await call(`/drafts/${draft.id}`, {
      method: "PUT",
      body: { id: draft.id, message: { raw: raw("Second") } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.id).toBe(draft.id);
    const message = updated.body.message as { id: string };
    expect(message.id).not.toBe(draft.message.id);
    const got = await call(`/drafts/${draft.id}?format=metadata`);
    const headers = (got.body.message as { payload: { headers: { name: string; value: string }[] } }).payload
      .headers;
    expect(headers.find((h) => h.name === "Subject")?.value).toBe("Second");
    expect((await call(`/messages/${draft.message.id}`)).status).toBe(404);
    await call(`/drafts/${draft.id}`, { method: "DELETE" });
  });

  it("lists drafts newest first with paging, the one written in Gmail itself included", async () => {
    await call("/drafts", { method: "POST", body: { message: { raw: raw("Listed") } } });
    const first = await call("/drafts?maxResults=1");
    const drafts = first.body.drafts as { id: string; message: { id: string } }[];
    expect(drafts).toHaveLength(1);
    expect(typeof first.body.nextPageToken).toBe("string");
    const all = await call("/drafts?maxResults=500");
    const subjects = await Promise.all(
      (all.body.drafts as { id: string }[]).map(async (d) => {
        const got = await call(`/drafts/${d.id}?format=metadata`);
        const message = got.body.message as { payload: { headers: { name: string; value: string }[] } };
        return message.payload.headers.find((h) => h.name === "Subject")?.value;
      }),
    );
    expect(subjects[0]).toBe("Listed");
    expect(subjects).toContain(DEMO_DRAFT_SUBJECT);
    expect((await call(`/drafts?pageToken=${first.body.nextPageToken as string}&maxResults=1`)).status).toBe(
      200,
    );
  });

  it("sends a draft: it leaves Drafts, a SENT copy is kept and the recipient gets it once", async () => {
    const created = await call("/drafts", { method: "POST", body: { message: { raw: raw("Sent draft") } } });
    const id = created.body.id as string;
    const sent = await call("/drafts/send", { method: "POST", body: { id } });
    expect(sent.status).toBe(200);
    expect(sent.body.labelIds).toContain("SENT");
    expect((await call(`/drafts/${id}`)).status).toBe(404);
    const received = (await inbox(PRIYA, "INBOX")).filter((m) => m.subject === "Sent draft");
    expect(received).toHaveLength(1);
    expect((await call("/drafts/send", { method: "POST", body: { id } })).status).toBe(404);
  });

  it("answers Google's errors: unknown drafts 404, a draft without recipients 400", async () => {
    for (const [method, path] of [
      ["GET", "/drafts/r123"],
      ["DELETE", "/drafts/r123"],
      ["PUT", "/drafts/r123"],
      ["GET", "/drafts/not-a-draft"],
    ] as const) {
      const answer = await call(path, {
        method,
        ...(method === "PUT" ? { body: { message: { raw: raw("x") } } } : {}),
      });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
    }
    const bare = Buffer.from("Subject: nobody\r\n\r\nx").toString("base64url");
    const created = await call("/drafts", { method: "POST", body: { message: { raw: bare } } });
    const refused = await call("/drafts/send", { method: "POST", body: { id: created.body.id } });
    expect(refused.status).toBe(400);
    expect((await call("/drafts", { method: "POST", body: {} })).status).toBe(400);
  });
});
