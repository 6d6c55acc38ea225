import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_DRAFT_SUBJECT } from "../../mailbox/draft-seed.ts";
import { accessTokenFor } from "../../mailbox/mail-test-support.ts";
import type { RunningEmulator } from "../../server.ts";
import { startTestEmulator } from "../../test-support.ts";

const JORDAN = "jordan.lee@outlook.com";
const CASEY = "casey.kim@outlook.com";
let emu: RunningEmulator;
let token: string;
type Json = Record<string, unknown>;

async function call(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${emu.url}/graph.microsoft.com/v1.0${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Json };
}

async function mailboxOf(email: string, label: string): Promise<Json[]> {
  const response = await fetch(`${emu.url}/_admin/mailboxes/${email}?label=${label}&limit=200`);
  return ((await response.json()) as { messages: Json[] }).messages;
}

const to = (address: string) => [{ emailAddress: { address } }];

beforeAll(async () => {
  emu = await startTestEmulator();
  token = await accessTokenFor(emu, "microsoft", JORDAN);
});
afterAll(() => emu.close());

describe("Graph draft messages", () => {
  it("creates a draft in Drafts, PATCH keeps its id and GET shows the change", async () => {
    const created = await call("/me/messages", {
      method: "POST",
      body: { subject: "One", body: { contentType: "text", content: "first" }, toRecipients: to(CASEY) },
    });
    expect(created.status).toBe(201);
    expect(created.body.isDraft).toBe(true);
    const id = created.body.id as string;
    const patched = await call(`/me/messages/${id}`, {
      method: "PATCH",
      body: { subject: "Two", body: { contentType: "html", content: "<p>second <b>bold</b></p>" } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.id).toBe(id);
    const got = await call(`/me/messages/${id}`);
    expect(got.body).toMatchObject({ subject: "Two", isDraft: true });
    expect((got.body.body as { content: string }).content).toContain("<b>bold</b>");
    expect((got.body.toRecipients as Json[])[0]).toMatchObject({ emailAddress: { address: CASEY } });
    const drafts = (await call("/me/mailFolders/drafts/messages?$select=subject&$top=50")).body
      .value as Json[];
    expect(drafts.map((d) => d.subject)).toEqual(expect.arrayContaining(["Two", DEMO_DRAFT_SUBJECT]));
    expect(drafts[0]?.subject).toBe("Two");
    expect((await call(`/me/messages/${id}`, { method: "DELETE" })).status).toBe(204);
  });

  it("sends a draft (202): it leaves Drafts, lands in Sent Items and reaches the recipient once", async () => {
    const created = await call("/me/messages", {
      method: "POST",
      body: {
        subject: "Draft to send",
        body: { contentType: "text", content: "hello" },
        toRecipients: to(CASEY),
      },
    });
    const id = created.body.id as string;
    await call(`/me/messages/${id}`, {
      method: "PATCH",
      body: { body: { contentType: "text", content: "edited" } },
    });
    const sent = await call(`/me/messages/${id}/send`, { method: "POST" });
    expect(sent.status).toBe(202);
    expect((await call(`/me/messages/${id}`)).status).toBe(404);
    const sentItems = (await call("/me/mailFolders/sentitems/messages?$top=5&$select=subject")).body
      .value as Json[];
    expect(sentItems[0]?.subject).toBe("Draft to send");
    const received = (await mailboxOf(CASEY, "INBOX")).filter((m) => m.subject === "Draft to send");
    expect(received).toHaveLength(1);
    const full = await fetch(`${emu.url}/_admin/mailboxes/${CASEY}/messages/${received[0]?.id as string}`);
    expect(((await full.json()) as { raw: string }).raw).toContain("edited");
  });

  it("answers Graph's errors for unknown drafts and a draft without recipients", async () => {
    for (const [method, path] of [
      ["PATCH", "/me/messages/AAMkNOPE"],
      ["POST", "/me/messages/AAMkNOPE/send"],
      ["DELETE", "/me/messages/AAMkNOPE"],
    ] as const) {
      const answer = await call(path, { method, ...(method === "PATCH" ? { body: { subject: "x" } } : {}) });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: "ErrorItemNotFound" } });
    }
    const bare = await call("/me/messages", { method: "POST", body: { subject: "nobody" } });
    expect((await call(`/me/messages/${bare.body.id as string}/send`, { method: "POST" })).status).toBe(400);
  });
});
