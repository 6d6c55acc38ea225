import type { gmail_v1 } from "@googleapis/gmail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessTokenFor, startReceiver, waitFor } from "../mailbox/mail-test-support.ts";
import { GMAIL_PUSH_INTERVAL_MS } from "../push/gmail-push.ts";
import type { RunningEmulator } from "../server.ts";
import { startTestEmulator } from "../test-support.ts";

const ALEX = "alex.morgan@gmail.com";
const PRIYA = "priya.shah@gmail.com";
let emu: RunningEmulator;
let token: string;
const base = () => `${emu.url}/gmail.googleapis.com/gmail/v1/users/me`;

async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${base()}${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${init.token ?? token}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Record<string, unknown> };
}

async function admin(path: string, method: string, body?: unknown) {
  const response = await fetch(`${emu.url}/_admin${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Record<string, unknown> };
}

beforeAll(async () => {
  emu = await startTestEmulator();
  token = await accessTokenFor(emu, "google", ALEX);
});
afterAll(() => emu.close());

describe("Gmail auth and profile", () => {
  it("answers 401 in Google's shape without a valid token", async () => {
    const response = await call("/profile", { token: "nope" });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      error: { code: 401, status: "UNAUTHENTICATED", errors: [{ reason: "authError", domain: "global" }] },
    });
  });

  it("refuses a token without Gmail scopes with 403", async () => {
    const plain = await accessTokenFor(emu, "google", ALEX, "openid email");
    const response = await call("/profile", { token: plain });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: { errors: [{ reason: "insufficientPermissions" }] } });
  });

  it("returns the profile and labels with counts", async () => {
    const profile = await call("/profile");
    expect(profile.status).toBe(200);
    expect(profile.body.emailAddress).toBe(ALEX);
    expect(profile.body.messagesTotal).toBeGreaterThan(1000);
    const labels = (await call("/labels")).body.labels as gmail_v1.Schema$Label[];
    const inbox = labels.find((label) => label.id === "INBOX");
    expect(inbox).toMatchObject({ type: "system" });
    expect(inbox?.messagesTotal).toBeGreaterThan(0);
    expect(inbox?.messagesUnread).toBeGreaterThan(0);
    expect(labels.map((label) => label.id)).toEqual(
      expect.arrayContaining(["SPAM", "TRASH", "CATEGORY_FORUMS"]),
    );
  });
});

describe("labels.create", () => {
  it("makes a user label once; the same name again is a 409; modify and get see it", async () => {
    const made = await call("/labels", { method: "POST", body: { name: "Flagged by Mailwise" } });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: "Flagged by Mailwise", type: "user" });
    const id = String(made.body.id);
    const again = await call("/labels", { method: "POST", body: { name: "flagged BY mailwise" } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 409, errors: [{ reason: "alreadyExists" }] } });
    expect((await call("/labels", { method: "POST", body: { name: "INBOX" } })).status).toBe(409);
    expect((await call("/labels", { method: "POST", body: { name: " " } })).status).toBe(400);

    const some = ((await call("/messages?maxResults=1&labelIds=INBOX")).body.messages as { id: string }[])[0]
      ?.id;
    await call(`/messages/${some}/modify`, { method: "POST", body: { addLabelIds: [id] } });
    expect((await call(`/messages/${some}?format=minimal`)).body.labelIds).toContain(id);
    expect((await call(`/labels/${id}`)).body).toMatchObject({ id, messagesTotal: 1 });
    const listed = (await call("/labels")).body.labels as gmail_v1.Schema$Label[];
    expect(listed.filter((label) => label.type === "user").map((label) => label.name)).toContain(
      "Flagged by Mailwise",
    );
  });
});

describe("messages.list and get", () => {
  it("pages newest first with nextPageToken and no duplicates", async () => {
    const first = await call("/messages?maxResults=50&labelIds=INBOX");
    const page1 = first.body.messages as { id: string }[];
    expect(page1).toHaveLength(50);
    const second = await call(
      `/messages?maxResults=50&labelIds=INBOX&pageToken=${String(first.body.nextPageToken)}`,
    );
    const page2 = second.body.messages as { id: string }[];
    expect(new Set([...page1, ...page2].map((m) => m.id)).size).toBe(100);
    const a = await call(`/messages/${page1[0]?.id}?format=minimal`);
    const b = await call(`/messages/${page2[0]?.id}?format=minimal`);
    expect(Number(a.body.internalDate)).toBeGreaterThanOrEqual(Number(b.body.internalDate));
  });

  it("excludes spam by default and filters with q", async () => {
    const all = (await call("/messages?maxResults=500")).body.messages as { id: string }[];
    const some = all[0]?.id ?? "";
    const labels = (await call(`/messages/${some}?format=minimal`)).body.labelIds as string[];
    expect(labels).not.toContain("SPAM");
    const spam = await call("/messages?q=in:spam&maxResults=5");
    const spamMessage = await call(
      `/messages/${(spam.body.messages as { id: string }[])[0]?.id}?format=minimal`,
    );
    expect(spamMessage.body.labelIds).toContain("SPAM");

    const unread = (await call("/messages?q=is:unread%20in:inbox&maxResults=20")).body.messages as {
      id: string;
    }[];
    for (const message of unread.slice(0, 5)) {
      const got = await call(`/messages/${message.id}?format=minimal`);
      expect(got.body.labelIds).toEqual(expect.arrayContaining(["UNREAD", "INBOX"]));
    }
    const recent = await call("/messages?q=newer_than:2d&maxResults=500");
    const older = await call("/messages?q=newer_than:30d&maxResults=500");
    expect((recent.body.messages as unknown[]).length).toBeLessThan(
      (older.body.messages as unknown[]).length,
    );
  });

  it("matches from:, subject: and plain words", async () => {
    const meta = await call(
      `/messages/${((await call("/messages?labelIds=INBOX&maxResults=1")).body.messages as { id: string }[])[0]?.id}?format=metadata&metadataHeaders=From&metadataHeaders=Subject`,
    );
    const headers = (meta.body.payload as gmail_v1.Schema$MessagePart).headers ?? [];
    expect(headers.map((h) => h.name?.toLowerCase()).sort()).toEqual(["from", "subject"]);
    const subject = headers.find((h) => h.name?.toLowerCase() === "subject")?.value ?? "";
    const word = subject.split(/\W+/).find((w) => w.length > 4) ?? "";
    const bySubject = await call(`/messages?q=${encodeURIComponent(`subject:${word}`)}`);
    expect(bySubject.body.messages).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: meta.body.id })]),
    );
    const byWord = await call(`/messages?q=${encodeURIComponent(word)}&maxResults=500`);
    expect(byWord.body.messages).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: meta.body.id })]),
    );
    const none = await call("/messages?q=from:nobody-at-all-xyz");
    expect(none.body.messages).toBeUndefined();
    expect(none.body.resultSizeEstimate).toBe(0);
  });

  it("serves full, raw and attachments", async () => {
    const added = await admin(`/mailboxes/${ALEX}/messages`, "POST", {
      raw: [
        "From: Sender <s@example.com>",
        `To: ${ALEX}`,
        "Subject: With attachment",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="b1"',
        "",
        "--b1",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "Hello body",
        "--b1",
        'Content-Type: application/pdf; name="a.pdf"',
        'Content-Disposition: attachment; filename="a.pdf"',
        "Content-Transfer-Encoding: base64",
        "",
        Buffer.from("PDFDATA").toString("base64"),
        "--b1--",
        "",
      ].join("\r\n"),
    });
    const id = String(added.body.id);
    const full = await call(`/messages/${id}?format=full`);
    const payload = full.body.payload as gmail_v1.Schema$MessagePart;
    expect(payload.mimeType).toBe("multipart/mixed");
    const [text, pdf] = payload.parts ?? [];
    expect(text?.partId).toBe("0");
    expect(Buffer.from(text?.body?.data ?? "", "base64url").toString()).toContain("Hello body");
    expect(pdf?.filename).toBe("a.pdf");
    expect(pdf?.body?.data).toBeUndefined();
    const attachment = await call(`/messages/${id}/attachments/${pdf?.body?.attachmentId}`);
    expect(Buffer.from(String(attachment.body.data), "base64url").toString()).toBe("PDFDATA");
    const raw = await call(`/messages/${id}?format=raw`);
    expect(Buffer.from(String(raw.body.raw), "base64url").toString()).toContain("Subject: With attachment");
    expect(full.body.snippet).toBe("Hello body");
    expect((await call("/messages/ffffffffffffffff")).status).toBe(404);
  });
});

describe("history, modify, send, drafts", () => {
  it("records label changes, additions and deletions; 404 for an expired start", async () => {
    const { body: profile } = await call("/profile");
    const start = String(profile.historyId);
    const inbox = (await call("/messages?labelIds=INBOX&maxResults=2")).body.messages as { id: string }[];
    const target = inbox[0]?.id ?? "";
    const modified = await call(`/messages/${target}/modify`, {
      method: "POST",
      body: { removeLabelIds: ["INBOX", "UNREAD"], addLabelIds: ["STARRED"] },
    });
    expect(modified.body.labelIds).not.toContain("INBOX");
    await admin(`/mailboxes/${ALEX}/messages`, "POST", {
      from: { address: "x@example.com" },
      subject: "New one",
      text: "hi",
    });
    const history = await call(`/history?startHistoryId=${start}`);
    const records = history.body.history as gmail_v1.Schema$History[];
    expect(records.some((r) => r.labelsRemoved?.[0]?.labelIds?.includes("INBOX"))).toBe(true);
    expect(records.some((r) => r.labelsAdded?.[0]?.labelIds?.includes("STARRED"))).toBe(true);
    expect(records.some((r) => r.messagesAdded?.[0]?.message?.labelIds?.includes("INBOX"))).toBe(true);
    const onlyAdded = await call(`/history?startHistoryId=${start}&historyTypes=messageAdded`);
    expect(
      (onlyAdded.body.history as gmail_v1.Schema$History[]).every((r) => r.messagesAdded !== undefined),
    ).toBe(true);
    const paged = await call(`/history?startHistoryId=${start}&maxResults=1`);
    expect(paged.body.history).toHaveLength(1);
    expect(paged.body.nextPageToken).toBeDefined();

    const status = await call(`/messages/${inbox[1]?.id}`, { method: "DELETE" });
    expect(status.status).toBe(204);
    const afterDelete = await call(`/history?startHistoryId=${start}&historyTypes=messageDeleted`);
    expect(
      (afterDelete.body.history as gmail_v1.Schema$History[])[0]?.messagesDeleted?.[0]?.message?.id,
    ).toBe(inbox[1]?.id);

    await admin(`/mailboxes/${ALEX}/expire-sync`, "POST");
    const gone = await call(`/history?startHistoryId=${start}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: { code: 404, errors: [{ reason: "notFound" }] } });
  });

  it("batchModify answers 204 and limits ids to 1000", async () => {
    const ids = ((await call("/messages?labelIds=INBOX&maxResults=3")).body.messages as { id: string }[]).map(
      (m) => m.id,
    );
    const done = await call("/messages/batchModify", {
      method: "POST",
      body: { ids, addLabelIds: ["IMPORTANT"] },
    });
    expect(done.status).toBe(204);
    const tooMany = await call("/messages/batchModify", {
      method: "POST",
      body: { ids: Array.from({ length: 1001 }, (_, i) => i.toString(16)), addLabelIds: ["STARRED"] },
    });
    expect(tooMany.status).toBe(400);
  });

  it("sends with SENT, threads replies and delivers to another identity", async () => {
    const raw = Buffer.from(
      `To: ${PRIYA}\r\nSubject: Hello Priya\r\nMessage-ID: <first@test>\r\n\r\nHi there`,
    ).toString("base64url");
    const sent = await call("/messages/send", { method: "POST", body: { raw } });
    expect(sent.status).toBe(200);
    expect(sent.body.labelIds).toEqual(["SENT"]);
    const reply = Buffer.from(
      `To: ${PRIYA}\r\nSubject: Re: Hello Priya\r\nIn-Reply-To: <first@test>\r\nReferences: <first@test>\r\n\r\nAgain`,
    ).toString("base64url");
    const second = await call("/messages/send", {
      method: "POST",
      body: { raw: reply, threadId: sent.body.threadId },
    });
    expect(second.body.threadId).toBe(sent.body.threadId);
    const priya = await admin(`/mailboxes/${PRIYA}?label=INBOX&limit=3`, "GET");
    expect((priya.body.messages as { subject: string }[]).map((m) => m.subject)).toContain("Hello Priya");
  });

  it("creates and lists drafts", async () => {
    const raw = Buffer.from("To: a@example.com\r\nSubject: Draft\r\n\r\nLater").toString("base64url");
    const created = await call("/drafts", { method: "POST", body: { message: { raw } } });
    expect(String(created.body.id)).toMatch(/^r\d+$/);
    const list = await call("/drafts");
    expect(list.body.drafts).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: created.body.id })]),
    );
  });
});

describe("big body parts", () => {
  const BIG = "Big bodies stay out of format=full.\r\n".repeat(9_000); // about 324 KB

  it("leaves a text body over the inline limit to attachments.get, charged 5 units, also in a batch", async () => {
    const email = "big.bodies@gmail.com";
    emu.control.addIdentity({ provider: "google", email, name: "Big Bodies" });
    const own = await accessTokenFor(emu, "google", email);
    const big = await admin(`/mailboxes/${email}/messages?provider=google`, "POST", {
      from: { address: "logs@example.com" },
      subject: "Long report",
      text: BIG,
    });
    const small = await admin(`/mailboxes/${email}/messages?provider=google`, "POST", {
      from: { address: "logs@example.com" },
      subject: "Short report",
      text: "Short body",
    });
    const full = await call(`/messages/${String(big.body.id)}?format=full`, { token: own });
    const body = (full.body.payload as gmail_v1.Schema$MessagePart).body;
    expect(body?.data).toBeUndefined();
    expect(body?.size).toBeGreaterThanOrEqual(Buffer.byteLength(BIG));
    expect(body?.attachmentId).toMatch(/^[A-Za-z0-9_-]+$/);
    const inline = await call(`/messages/${String(small.body.id)}?format=full`, { token: own });
    expect((inline.body.payload as gmail_v1.Schema$MessagePart).body?.data).toBeDefined();

    const path = `/messages/${String(big.body.id)}/attachments/${body?.attachmentId}`;
    const part = await call(path, { token: own });
    expect(part.status).toBe(200);
    expect(part.body.size).toBe(body?.size);
    expect(Buffer.from(String(part.body.data), "base64url").toString().trimEnd()).toBe(BIG.trimEnd());

    const boundary = "batch_big";
    const batch = await fetch(`${emu.url}/gmail.googleapis.com/batch/gmail/v1`, {
      method: "POST",
      headers: { authorization: `Bearer ${own}`, "content-type": `multipart/mixed; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <p0>\r\n\r\nGET /gmail/v1/users/me${path}\r\n\r\n--${boundary}--\r\n`,
    });
    const answer = await batch.text();
    expect(answer).toContain("Content-ID: <response-p0>");
    expect(answer).toContain("HTTP/1.1 200");
    expect(answer).toContain(Buffer.from(BIG.slice(0, 300)).toString("base64url").slice(0, 40));

    // attachments.get costs 5 units: in a fresh 10-unit minute one get and one attachments.get
    // fit, and the next attachments.get is refused.
    await admin("/clock", "POST", { advanceSeconds: 60 });
    await admin("/mail/faults", "PUT", { gmailQuota: { enabled: true, unitsPerMinute: 10 } });
    try {
      let third = 0;
      for (let attempt = 0; attempt < 3 && third !== 429; attempt++) {
        if (attempt > 0) await admin("/clock", "POST", { advanceSeconds: 60 });
        expect((await call(`/messages/${String(big.body.id)}?format=minimal`, { token: own })).status).toBe(
          200,
        );
        expect((await call(path, { token: own })).status).toBe(200);
        third = (await call(path, { token: own })).status;
      }
      expect(third).toBe(429);
    } finally {
      await admin("/mail/faults", "PUT", { gmailQuota: { enabled: true, unitsPerMinute: 15000 } });
    }
  });
});

describe("quota and batch", () => {
  it("answers 429 with Google's body over the per-minute quota, and refills next minute", async () => {
    const other = await accessTokenFor(emu, "google", "sam.taylor@gmail.com");
    await admin("/mail/faults", "PUT", { gmailQuota: { enabled: true, unitsPerMinute: 12 } });
    try {
      // The quota is a fixed window per clock minute: if a minute boundary falls between the calls,
      // the window refills mid-test, so try again in a fresh window (at most three times).
      let limited = { status: 0, body: {} as unknown };
      for (let attempt = 0; attempt < 3 && limited.status !== 429; attempt++) {
        if (attempt > 0) await admin("/clock", "POST", { advanceSeconds: 60 });
        expect((await call("/messages?maxResults=1", { token: other })).status).toBe(200);
        expect((await call("/messages?maxResults=1", { token: other })).status).toBe(200);
        limited = await call("/messages?maxResults=1", { token: other });
      }
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        error: {
          code: 429,
          message: expect.any(String),
          errors: [{ domain: "usageLimits", reason: "rateLimitExceeded", message: expect.any(String) }],
          status: "RESOURCE_EXHAUSTED",
        },
      });
      expect((await call("/profile", { token: other })).status).toBe(200);
      await admin("/clock", "POST", { advanceSeconds: 60 });
      expect((await call("/messages?maxResults=1", { token: other })).status).toBe(200);
    } finally {
      await admin("/mail/faults", "PUT", { gmailQuota: { enabled: true, unitsPerMinute: 15000 } });
    }
  });

  it("runs multipart batches, each call charged, inner parts may be 429", async () => {
    const other = await accessTokenFor(emu, "google", "sam.taylor@gmail.com");
    const ids = (
      (await call("/messages?maxResults=4", { token: other })).body.messages as { id: string }[]
    ).map((m) => m.id);
    await admin("/mail/faults/reset", "POST");
    await admin("/mail/faults", "PUT", { gmailQuota: { enabled: true, unitsPerMinute: 15 } });
    try {
      const boundary = "batch_test";
      const body = `${ids
        .map(
          (id, i) =>
            `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <item${i}>\r\n\r\nGET /gmail/v1/users/me/messages/${id}?format=metadata\r\n\r\n`,
        )
        .join("")}--${boundary}--\r\n`;
      const response = await fetch(`${emu.url}/gmail.googleapis.com/batch/gmail/v1`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${other}`,
          "content-type": `multipart/mixed; boundary=${boundary}`,
        },
        body,
      });
      expect(response.status).toBe(200);
      const type = response.headers.get("content-type") ?? "";
      expect(type).toMatch(/^multipart\/mixed; boundary=/);
      const text = await response.text();
      const parts = text.split(`--${type.split("boundary=")[1]}`).filter((p) => p.includes("HTTP/1.1"));
      expect(parts).toHaveLength(4);
      expect(parts[0]).toContain("Content-ID: <response-item0>");
      expect(parts.filter((p) => p.includes("HTTP/1.1 200")).length).toBe(3);
      expect(parts[3]).toContain("HTTP/1.1 429");
      expect(parts[3]).toContain("rateLimitExceeded");
    } finally {
      await admin("/mail/faults/reset", "POST");
      await admin("/mail/faults", "PUT", { gmailQuota: { unitsPerMinute: 15000 } });
    }
  });

  it("answers messages.get inside a batch exactly as the plain call does, errors included", async () => {
    const [first] = ((await call("/messages?maxResults=1")).body.messages as { id: string }[]) ?? [];
    if (first === undefined) throw new Error("no message");
    const cases: Array<{ path: string; token?: string }> = [
      { path: `/gmail/v1/users/me/messages/${first.id}` },
      {
        path: `/gmail/v1/users/me/messages/${first.id}?format=metadata&metadataHeaders=Subject&metadataHeaders=From`,
      },
      { path: `/gmail/v1/users/${encodeURIComponent(ALEX)}/messages/${first.id}?format=minimal` },
      { path: `/gmail/v1/users/${PRIYA}/messages/${first.id}` },
      { path: "/gmail/v1/users/me/messages/ffffffffffffffff" },
      { path: "/gmail/v1/users/me/messages/not-an-id" },
      { path: `/gmail/v1/users/me/messages/${first.id}?format=html` },
      { path: `/gmail/v1/users/me/messages/${first.id}`, token: "expired-or-unknown" },
    ];
    const boundary = "batch_same";
    const body = `${cases
      .map(
        (c, i) =>
          `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <c${i}>\r\n\r\nGET ${c.path}\r\n${c.token ? `Authorization: Bearer ${c.token}\r\n` : ""}\r\n`,
      )
      .join("")}--${boundary}--\r\n`;
    const response = await fetch(`${emu.url}/gmail.googleapis.com/batch/gmail/v1`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": `multipart/mixed; boundary=${boundary}` },
      body,
    });
    const type = response.headers.get("content-type") ?? "";
    const parts = (await response.text())
      .split(`--${type.split("boundary=")[1]}`)
      .filter((p) => p.includes("HTTP/1.1"));
    expect(parts).toHaveLength(cases.length);
    for (const [i, c] of cases.entries()) {
      const plain = await fetch(`${emu.url}/gmail.googleapis.com${c.path}`, {
        headers: { authorization: `Bearer ${c.token ?? token}` },
      });
      const part = parts[i] ?? "";
      const [, innerHead = "", innerBody = ""] = /\r\n\r\n([\s\S]*?)\r\n\r\n([\s\S]*)\r\n$/.exec(part) ?? [];
      expect(innerHead, c.path).toContain(`HTTP/1.1 ${plain.status}`);
      expect(innerHead.toLowerCase(), c.path).toContain(
        `content-type: ${plain.headers.get("content-type")?.toLowerCase()}`,
      );
      const auth = plain.headers.get("www-authenticate");
      if (auth) expect(innerHead, c.path).toContain(`WWW-Authenticate: ${auth}`);
      expect(JSON.parse(innerBody), c.path).toEqual(await plain.json());
    }
  });

  it("refuses more than 100 calls in a batch", async () => {
    const body = `${Array.from({ length: 101 }, () => "--b\r\nContent-Type: application/http\r\n\r\nGET /gmail/v1/users/me/profile\r\n\r\n").join("")}--b--`;
    const response = await fetch(`${emu.url}/gmail.googleapis.com/batch/gmail/v1`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "multipart/mixed; boundary=b" },
      body,
    });
    expect(response.status).toBe(400);
  });
});

describe("watch and push", () => {
  it("POSTs the Pub/Sub push body on a mailbox change", async () => {
    const receiver = await startReceiver();
    try {
      await admin("/mail/push", "PUT", { gmailPushUrl: `${receiver.url}/push` });
      const watch = await call("/watch", {
        method: "POST",
        body: {
          topicName: "projects/mailwise/topics/gmail",
          labelIds: ["INBOX"],
          labelFilterBehavior: "INCLUDE",
        },
      });
      expect(watch.status).toBe(200);
      expect(Number(watch.body.expiration)).toBeGreaterThan(Date.now());
      await admin(`/mailboxes/${ALEX}/messages`, "POST", {
        from: { address: "push@example.com" },
        subject: "Pushed",
        text: "x",
      });
      const request = await waitFor(() => receiver.received[0]);
      const body = JSON.parse(request.body) as {
        message: { data: string; messageId: string; publishTime: string };
        subscription: string;
      };
      expect(body.subscription).toMatch(/^projects\/.+\/subscriptions\/.+/);
      expect(typeof body.message.messageId).toBe("string");
      expect(Date.parse(body.message.publishTime)).not.toBeNaN();
      const data = JSON.parse(Buffer.from(body.message.data, "base64").toString()) as {
        emailAddress: string;
        historyId: number;
      };
      expect(data.emailAddress).toBe(ALEX);
      const profile = await call("/profile");
      expect(String(data.historyId)).toBe(String(profile.body.historyId));
      await call("/stop", { method: "POST" });
    } finally {
      await receiver.close();
    }
  });

  it("pushes at most once a second per mailbox; the change past the limit goes at the end of the second", async () => {
    const receiver = await startReceiver();
    const historyOf = (i: number) =>
      (
        JSON.parse(
          Buffer.from(
            (JSON.parse(receiver.received[i]?.body ?? "{}") as { message: { data: string } }).message.data,
            "base64",
          ).toString(),
        ) as { historyId: number }
      ).historyId;
    try {
      await admin("/mail/push", "PUT", { gmailPushUrl: `${receiver.url}/push` });
      await call("/watch", {
        method: "POST",
        body: { topicName: "projects/mailwise/topics/gmail", labelIds: [] },
      });
      // Past any push of an earlier test to this mailbox.
      await new Promise((resolve) => setTimeout(resolve, GMAIL_PUSH_INTERVAL_MS));
      const started = performance.now();
      for (let i = 0; i < 5; i++) {
        await admin(`/mailboxes/${ALEX}/messages`, "POST", {
          from: { address: "burst@example.com" },
          subject: `Burst ${i}`,
          text: "x",
        });
      }
      await waitFor(() => receiver.received[1], 3_000);
      const second = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 300));
      // One at once, one held to the end of the second carrying the last change; nothing more.
      expect(receiver.received).toHaveLength(2);
      expect(second).toBeGreaterThanOrEqual(GMAIL_PUSH_INTERVAL_MS - 50);
      const profile = await call("/profile");
      expect(String(historyOf(1))).toBe(String(profile.body.historyId));
      expect(historyOf(0)).toBeLessThan(historyOf(1));
      await call("/stop", { method: "POST" });
    } finally {
      await receiver.close();
    }
  });
});
