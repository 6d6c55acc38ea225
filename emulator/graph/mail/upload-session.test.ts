import { randomBytes } from "node:crypto";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessTokenFor } from "../../mailbox/mail-test-support.ts";
import type { RunningEmulator } from "../../server.ts";
import { startTestEmulator } from "../../test-support.ts";

/**
 * Issue 36, the emulator's side of sending files: Graph draft attachments and upload sessions
 * (documented shapes and errors), and Gmail's upload endpoint of messages.send.
 */
const JORDAN = "jordan.lee@outlook.com";
const ALEX = "alex.morgan@gmail.com";
let emu: RunningEmulator;
let graphToken: string;
let gmailToken: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  graphToken = await accessTokenFor(emu, "microsoft", JORDAN);
  gmailToken = await accessTokenFor(emu, "google", ALEX);
});
afterAll(() => emu.close());

const graph = (path: string) => `${emu.url}/graph.microsoft.com/v1.0${path}`;

async function json(response: Response) {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

async function graphCall(method: string, path: string, body?: unknown) {
  return json(
    await fetch(graph(path), {
      method,
      headers: {
        authorization: `Bearer ${graphToken}`,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  );
}

async function put(url: string, bytes: Buffer, range: string) {
  return json(
    await fetch(url, { method: "PUT", headers: { "content-range": range }, body: new Uint8Array(bytes) }),
  );
}

async function lastRaw(email: string, provider: "google" | "microsoft", subject: string) {
  const box = (await (
    await fetch(`${emu.url}/_admin/mailboxes/${encodeURIComponent(email)}?provider=${provider}&limit=20`)
  ).json()) as { messages: { id: string; subject: string }[] };
  const id = box.messages.find((m) => m.subject === subject)?.id;
  if (!id) throw new Error(`no "${subject}" in ${email}`);
  const message = (await (
    await fetch(
      `${emu.url}/_admin/mailboxes/${encodeURIComponent(email)}/messages/${id}?provider=${provider}`,
    )
  ).json()) as { raw: string };
  return PostalMime.parse(message.raw, { attachmentEncoding: "arraybuffer" });
}

describe("Graph upload sessions", () => {
  it("takes ranges in order, answers the documented shapes, and sends the draft with its files", async () => {
    const draft = await graphCall("POST", "/me/messages", {
      subject: "Session test",
      body: { contentType: "text", content: "files" },
      toRecipients: [{ emailAddress: { address: ALEX } }],
    });
    const id = String(draft.body.id);
    const small = randomBytes(1000);
    const inline = await graphCall("POST", `/me/messages/${id}/attachments`, {
      "@odata.type": "#microsoft.graph.fileAttachment",
      name: "small.bin",
      contentType: "application/octet-stream",
      contentBytes: small.toString("base64"),
    });
    expect(inline.status).toBe(201);
    expect(inline.body).toMatchObject({ name: "small.bin", size: 1000 });

    const big = randomBytes(700_000);
    const refused = await graphCall("POST", `/me/messages/${id}/attachments/createUploadSession`, {
      AttachmentItem: { attachmentType: "file", name: "huge", size: 151 * 1024 * 1024 },
    });
    expect(refused.status).toBe(400);
    const session = await graphCall("POST", `/me/messages/${id}/attachments/createUploadSession`, {
      AttachmentItem: {
        attachmentType: "file",
        name: "big.bin",
        size: big.length,
        contentType: "application/zip",
      },
    });
    expect(session.status).toBe(201);
    expect(session.body).toMatchObject({ nextExpectedRanges: ["0-"] });
    const url = String(session.body.uploadUrl);
    expect(
      (
        await put(
          url.replace(/authtoken=.*/, "authtoken=wrong"),
          big.subarray(0, 10),
          `bytes 0-9/${big.length}`,
        )
      ).status,
    ).toBe(404);
    const outOfOrder = await put(url, big.subarray(327_680, 655_360), `bytes 327680-655359/${big.length}`);
    expect(outOfOrder.status).toBe(416);
    expect(outOfOrder.body).toMatchObject({ nextExpectedRanges: ["0-"] });
    expect((await put(url, big.subarray(0, 10), `bytes 0-10/${big.length}`)).status).toBe(400);
    const first = await put(url, big.subarray(0, 327_680), `bytes 0-327679/${big.length}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ nextExpectedRanges: ["327680-"] });
    const last = await put(url, big.subarray(327_680), `bytes 327680-${big.length - 1}/${big.length}`);
    expect(last.status).toBe(201);
    expect(last.headers.get("location")).toContain(`/me/messages/${encodeURIComponent(id)}/attachments/`);
    // The session is gone once complete.
    expect((await put(url, big.subarray(0, 10), `bytes 0-9/${big.length}`)).status).toBe(404);

    expect((await graphCall("POST", `/me/messages/${id}/send`)).status).toBe(202);
    const mail = await lastRaw(ALEX, "google", "Session test");
    const named = (n: string) =>
      Buffer.from(mail.attachments.find((a) => a.filename === n)?.content as ArrayBuffer);
    expect(named("small.bin").equals(small)).toBe(true);
    expect(named("big.bin").equals(big)).toBe(true);
  });
});

describe("Gmail upload of messages.send", () => {
  const upload = (query: string, body: Buffer, type: string) =>
    fetch(`${emu.url}/gmail.googleapis.com/upload/gmail/v1/users/me/messages/send${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${gmailToken}`, "content-type": type },
      body: new Uint8Array(body),
    }).then(json);

  it("sends uploadType=media and multipart, and refuses a missing uploadType", async () => {
    const raw = (subject: string) =>
      Buffer.from(`To: ${JORDAN}\r\nSubject: ${subject}\r\nContent-Type: text/plain\r\n\r\nhello\r\n`);
    expect((await upload("", raw("none"), "message/rfc822")).status).toBe(400);
    const media = await upload("?uploadType=media", raw("Media upload"), "message/rfc822");
    expect(media.status).toBe(200);
    expect(media.body).toMatchObject({ labelIds: ["SENT"] });
    const boundary = "b0undary";
    const related = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${boundary}\r\nContent-Type: message/rfc822\r\n\r\n`,
      ),
      raw("Multipart upload"),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect(
      (await upload("?uploadType=multipart", related, `multipart/related; boundary=${boundary}`)).status,
    ).toBe(200);
    expect((await lastRaw(JORDAN, "microsoft", "Multipart upload")).text?.trim()).toBe("hello");
    expect((await lastRaw(JORDAN, "microsoft", "Media upload")).text?.trim()).toBe("hello");
  });
});
