import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessTokenFor, startReceiver, waitFor } from "../../mailbox/mail-test-support.ts";
import type { RunningEmulator } from "../../server.ts";
import { startTestEmulator } from "../../test-support.ts";

const JORDAN = "jordan.lee@outlook.com";
let emu: RunningEmulator;
let token: string;
const root = () => `${emu.url}/graph.microsoft.com/v1.0`;

type Json = Record<string, unknown>;

async function call(
  path: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Json } = {},
) {
  const url = path.startsWith("http") ? path : `${root()}${path}`;
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${init.token ?? token}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...(init.headers as Record<string, string> | undefined),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text === "" ? {} : JSON.parse(text)) as Json,
  };
}

async function admin(path: string, method: string, body?: unknown) {
  const response = await fetch(`${emu.url}/_admin${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Json };
}

beforeAll(async () => {
  emu = await startTestEmulator();
  token = await accessTokenFor(emu, "microsoft", JORDAN);
});
afterAll(() => emu.close());

describe("Graph mail folders and messages", () => {
  it("401 in Graph's shape without a token", async () => {
    const response = await call("/me/messages", { token: "bad" });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: { code: "InvalidAuthenticationToken" } });
  });

  it("lists well-known folders and their counts", async () => {
    const folders = (await call("/me/mailFolders")).body.value as Json[];
    expect(folders.map((f) => f.displayName)).toEqual(
      expect.arrayContaining(["Inbox", "Archive", "Deleted Items", "Junk Email", "Sent Items", "Drafts"]),
    );
    const inbox = await call("/me/mailFolders/inbox");
    expect(inbox.body.totalItemCount).toBeGreaterThan(500);
    const byId = await call(`/me/mailFolders/${encodeURIComponent(String(inbox.body.id))}`);
    expect(byId.body.displayName).toBe("Inbox");
  });

  it("pages with $top, $select and @odata.nextLink; filters isRead", async () => {
    const first = await call("/me/mailFolders/inbox/messages?$top=5&$select=subject,isRead,receivedDateTime");
    const value = first.body.value as Json[];
    expect(value).toHaveLength(5);
    expect(Object.keys(value[0] ?? {}).sort()).toEqual([
      "@odata.etag",
      "id",
      "isRead",
      "receivedDateTime",
      "subject",
    ]);
    const next = String(first.body["@odata.nextLink"]);
    // Graph percent-encodes the $ of system query options in nextLinks.
    expect(decodeURIComponent(next)).toContain("$skip=5");
    const second = await call(next);
    const ids = new Set([...value, ...(second.body.value as Json[])].map((m) => m.id));
    expect(ids.size).toBe(10);
    expect(
      String((second.body.value as Json[])[0]?.receivedDateTime) <= String(value[4]?.receivedDateTime),
    ).toBe(true);
    const unread = (await call("/me/messages?$filter=isRead eq false&$top=20&$select=isRead")).body
      .value as Json[];
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.every((m) => m.isRead === false)).toBe(true);
    expect((await call("/me/messages?$top=1001")).status).toBe(400);
    const defaults = (await call("/me/messages")).body.value as Json[];
    expect(defaults).toHaveLength(10);
    expect(defaults[0]?.internetMessageHeaders).toBeUndefined();
  });

  it("returns internetMessageHeaders only when selected, and bodies", async () => {
    const [first] = (await call("/me/mailFolders/inbox/messages?$top=1&$select=id")).body.value as Json[];
    const id = encodeURIComponent(String(first?.id));
    const plain = await call(`/me/messages/${id}`);
    expect(plain.body.internetMessageHeaders).toBeUndefined();
    expect(plain.body.body).toMatchObject({ contentType: expect.stringMatching(/text|html/) });
    const withHeaders = await call(`/me/messages/${id}?$select=internetMessageHeaders,subject`);
    expect(
      (withHeaders.body.internetMessageHeaders as Json[]).some(
        (h) => String(h.name).toLowerCase() === "subject",
      ),
    ).toBe(true);
  });

  it("PATCH changes isRead and flag; move gives a new id", async () => {
    const [message] = (await call("/me/mailFolders/inbox/messages?$top=1&$select=id")).body.value as Json[];
    const id = encodeURIComponent(String(message?.id));
    const patched = await call(`/me/messages/${id}`, {
      method: "PATCH",
      body: { isRead: true, flag: { flagStatus: "flagged" } },
    });
    expect(patched.body).toMatchObject({ isRead: true, flag: { flagStatus: "flagged" } });
    const moved = await call(`/me/messages/${id}/move`, {
      method: "POST",
      body: { destinationId: "archive" },
    });
    expect(moved.status).toBe(201);
    expect(moved.body.id).not.toBe(message?.id);
    expect((await call(`/me/messages/${id}`)).status).toBe(404);
    const archive = await call("/me/mailFolders/archive");
    expect(moved.body.parentFolderId).toBe(archive.body.id);
  });

  it("POST /me/mailFolders makes a folder (409 ErrorFolderExists for a taken name); moves into and out of it", async () => {
    const made = await call("/me/mailFolders", { method: "POST", body: { displayName: "Snoozed" } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ displayName: "Snoozed", totalItemCount: 0 });
    const again = await call("/me/mailFolders", { method: "POST", body: { displayName: "snoozed" } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: "ErrorFolderExists" } });
    expect((await call("/me/mailFolders", { method: "POST", body: { displayName: " " } })).status).toBe(400);
    expect((await call("/me/mailFolders", { method: "POST", body: { displayName: "Inbox" } })).status).toBe(
      409,
    );
    const listed = (await call("/me/mailFolders")).body.value as Json[];
    expect(listed.map((f) => f.displayName)).toContain("Snoozed");

    const folderId = String(made.body.id);
    const [message] = (await call("/me/mailFolders/inbox/messages?$top=1&$select=id")).body.value as Json[];
    const moved = await call(`/me/messages/${encodeURIComponent(String(message?.id))}/move`, {
      method: "POST",
      body: { destinationId: folderId },
    });
    expect(moved.status).toBe(201);
    expect(moved.body.parentFolderId).toBe(folderId);
    const inFolder = (await call(`/me/mailFolders/${encodeURIComponent(folderId)}/messages?$select=id`)).body
      .value as Json[];
    expect(inFolder.map((m) => m.id)).toEqual([moved.body.id]);
    const back = await call(`/me/messages/${encodeURIComponent(String(moved.body.id))}/move`, {
      method: "POST",
      body: { destinationId: "inbox" },
    });
    expect(back.status).toBe(201);
    expect(back.body.id).not.toBe(moved.body.id);
    expect((await call(`/me/mailFolders/${encodeURIComponent(folderId)}`)).body.totalItemCount).toBe(0);
  });

  it("sendMail saves to Sent Items (202) and delivers; POST /me/messages makes a draft", async () => {
    const sent = await call("/me/sendMail", {
      method: "POST",
      body: {
        message: {
          subject: "To Casey",
          body: { contentType: "text", content: "Hi" },
          toRecipients: [{ emailAddress: { address: "casey.kim@outlook.com" } }],
        },
        saveToSentItems: true,
      },
    });
    expect(sent.status).toBe(202);
    const sentItems = (await call("/me/mailFolders/sentitems/messages?$top=1&$select=subject")).body
      .value as Json[];
    expect(sentItems[0]?.subject).toBe("To Casey");
    const casey = await admin("/mailboxes/casey.kim@outlook.com?label=INBOX&limit=1", "GET");
    expect((casey.body.messages as Json[])[0]?.subject).toBe("To Casey");
    const draft = await call("/me/messages", {
      method: "POST",
      body: { subject: "Draft", body: { contentType: "html", content: "<p>x</p>" } },
    });
    expect(draft.status).toBe(201);
    expect(draft.body.isDraft).toBe(true);
  });
});

describe("Graph attachments", () => {
  const PDF = Buffer.from("%PDF-1.4 quarterly numbers");
  const PNG = Buffer.from("\x89PNG fake image bytes", "latin1");
  const raw = (inlineOnly: boolean) =>
    [
      "From: Finance <finance@example.com>",
      `To: ${JORDAN}`,
      `Subject: ${inlineOnly ? "Logo only" : "Quarterly report"}`,
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="mix"',
      "",
      "--mix",
      'Content-Type: multipart/related; boundary="rel"',
      "",
      "--rel",
      "Content-Type: text/html; charset=utf-8",
      "",
      '<p>Numbers attached <img src="cid:logo@example.com"></p>',
      "--rel",
      'Content-Type: image/png; name="logo.png"',
      "Content-Transfer-Encoding: base64",
      "Content-ID: <logo@example.com>",
      "Content-Disposition: inline",
      "",
      PNG.toString("base64"),
      "--rel--",
      ...(inlineOnly
        ? []
        : [
            "--mix",
            'Content-Type: application/pdf; name="report.pdf"',
            'Content-Disposition: attachment; filename="report.pdf"',
            "Content-Transfer-Encoding: base64",
            "",
            PDF.toString("base64"),
          ]),
      "--mix--",
      "",
    ].join("\r\n");

  it("lists file attachments with $select (no contentBytes), one by id with them; hasAttachments skips inline", async () => {
    const added = await admin(`/mailboxes/${JORDAN}/messages?provider=microsoft`, "POST", {
      raw: raw(false),
    });
    const id = encodeURIComponent(String(added.body.graphId));
    expect((await call(`/me/messages/${id}?$select=hasAttachments`)).body.hasAttachments).toBe(true);

    const listed = await call(`/me/messages/${id}/attachments?$select=id,name,contentType,size,isInline`);
    expect(listed.status).toBe(200);
    const value = listed.body.value as Json[];
    expect(value).toEqual([
      {
        "@odata.type": "#microsoft.graph.fileAttachment",
        id: expect.any(String),
        name: "logo.png",
        contentType: "image/png",
        size: PNG.length,
        isInline: true,
      },
      {
        "@odata.type": "#microsoft.graph.fileAttachment",
        id: expect.any(String),
        name: "report.pdf",
        contentType: "application/pdf",
        size: PDF.length,
        isInline: false,
      },
    ]);

    const one = await call(`/me/messages/${id}/attachments/${encodeURIComponent(String(value[1]?.id))}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ name: "report.pdf", isInline: false });
    expect(Buffer.from(String(one.body.contentBytes), "base64").equals(PDF)).toBe(true);
    const everything = (await call(`/me/messages/${id}/attachments`)).body.value as Json[];
    expect(everything[0]).toMatchObject({
      contentId: "logo@example.com",
      contentBytes: PNG.toString("base64"),
    });

    const inlineOnly = await admin(`/mailboxes/${JORDAN}/messages?provider=microsoft`, "POST", {
      raw: raw(true),
    });
    const inlineId = encodeURIComponent(String(inlineOnly.body.graphId));
    expect((await call(`/me/messages/${inlineId}?$select=hasAttachments`)).body.hasAttachments).toBe(false);
    expect(((await call(`/me/messages/${inlineId}/attachments`)).body.value as Json[]).length).toBe(1);

    expect((await call("/me/messages/AQMkADAwATNiZmYAZC1nope=/attachments")).status).toBe(404);
    expect((await call(`/me/messages/${id}/attachments/AAMkAttbm9wZQ=`)).status).toBe(404);
  });

  it("answers attachment listings inside $batch", async () => {
    const added = await admin(`/mailboxes/${JORDAN}/messages?provider=microsoft`, "POST", {
      raw: raw(false),
    });
    const id = encodeURIComponent(String(added.body.graphId));
    const batch = await call("/$batch", {
      method: "POST",
      body: {
        requests: [
          { id: "a", method: "GET", url: `/me/messages/${id}/attachments?$select=name,size` },
          { id: "b", method: "GET", url: "/me/messages/AQMkADAwATNiZmYAZC1nope=/attachments" },
        ],
      },
    });
    const responses = batch.body.responses as { id: string; status: number; body: Json }[];
    const a = responses.find((r) => r.id === "a");
    expect(a?.status).toBe(200);
    expect(a?.body.value).toEqual([
      expect.objectContaining({ name: "logo.png", size: PNG.length }),
      expect.objectContaining({ name: "report.pdf", size: PDF.length }),
    ]);
    expect(JSON.stringify(a?.body)).not.toContain("contentBytes");
    expect(responses.find((r) => r.id === "b")?.status).toBe(404);
  });
});

describe("Graph reply", () => {
  it("replies to the sender in the same conversation with In-Reply-To and an RE: subject", async () => {
    const inbox = (await call("/me/mailFolders/inbox/messages?$top=1&$select=subject,conversationId,from"))
      .body.value as Json[];
    const original = inbox[0] as Json;
    const res = await call(`/me/messages/${String(original.id)}/reply`, {
      method: "POST",
      body: { comment: "Thanks, noted." },
    });
    expect(res.status).toBe(202);
    const sent = (
      await call(
        "/me/mailFolders/sentitems/messages?$top=1&$select=subject,conversationId,internetMessageHeaders",
      )
    ).body.value as Json[];
    expect(String(sent[0]?.subject)).toMatch(/^RE: /i);
    expect(sent[0]?.conversationId).toBe(original.conversationId);
    const missing = await call("/me/messages/AAMkNOPE/reply", { method: "POST", body: { comment: "x" } });
    expect(missing.status).toBe(404);
  });
});

describe("Graph delta", () => {
  it("pages a first round, then reports changes, @removed and 410", async () => {
    const headers = { prefer: "odata.maxpagesize=200" };
    let url: string | undefined = "/me/mailFolders/inbox/messages/delta?$select=subject,isRead";
    let total = 0;
    let deltaLink = "";
    let pages = 0;
    while (url !== undefined) {
      const page = await call(url, { headers });
      pages += 1;
      total += (page.body.value as Json[]).length;
      const next = page.body["@odata.nextLink"];
      if (typeof next === "string") url = next;
      else {
        deltaLink = String(page.body["@odata.deltaLink"]);
        url = undefined;
      }
    }
    const inbox = await call("/me/mailFolders/inbox");
    expect(total).toBe(inbox.body.totalItemCount);
    expect(pages).toBeGreaterThan(1);
    expect(deltaLink).toContain("$deltatoken=");

    const quiet = await call(deltaLink);
    expect(quiet.body.value).toEqual([]);

    const [a, b] = (await call("/me/mailFolders/inbox/messages?$top=2&$select=id")).body.value as Json[];
    await call(`/me/messages/${encodeURIComponent(String(a?.id))}`, {
      method: "PATCH",
      body: { isRead: false },
    });
    await call(`/me/messages/${encodeURIComponent(String(a?.id))}`, {
      method: "PATCH",
      body: { isRead: true },
    });
    await call(`/me/messages/${encodeURIComponent(String(b?.id))}/move`, {
      method: "POST",
      body: { destinationId: "archive" },
    });
    const added = await admin(`/mailboxes/${JORDAN}/messages`, "POST", {
      from: { address: "n@example.com" },
      subject: "Fresh",
      text: "x",
    });
    const changes = await call(String(quiet.body["@odata.deltaLink"]));
    const value = changes.body.value as Json[];
    expect(value).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: a?.id, isRead: true }),
        expect.objectContaining({ id: b?.id, "@removed": { reason: "deleted" } }),
        expect.objectContaining({ id: added.body.graphId, subject: "Fresh" }),
      ]),
    );
    await admin(`/mailboxes/${JORDAN}/expire-sync`, "POST");
    const gone = await call(String(changes.body["@odata.deltaLink"]));
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ error: { code: "SyncStateNotFound" } });
  });
});

describe("throttling and batch", () => {
  it("answers the 5th concurrent request with 429 and Retry-After", async () => {
    await admin("/mail/faults", "PUT", { latencyMs: 300, provider: "microsoft" });
    try {
      const pending = Promise.all(Array.from({ length: 5 }, () => call("/me/mailFolders/inbox?$select=id")));
      // While they wait out the latency, the admin API lists them (tests act on a call in flight).
      await new Promise((resolve) => setTimeout(resolve, 150));
      const during = await admin("/mail/faults", "GET");
      expect((during.body as { delayed: string[] }).delayed).toContain(
        "GET /graph.microsoft.com/v1.0/me/mailFolders/inbox",
      );
      const responses = await pending;
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const limited = responses.find((r) => r.status === 429);
      expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited?.body).toMatchObject({
        error: { code: expect.stringMatching(/ApplicationThrottled|TooManyRequests/) },
      });
    } finally {
      await admin("/mail/faults/reset", "POST");
    }
  });

  it("$batch runs up to 20 requests; inner ones can be 429", async () => {
    await admin("/mail/faults", "PUT", { graphThrottle: { perTenMinutes: 3 } });
    const casey = await accessTokenFor(emu, "microsoft", "casey.kim@outlook.com");
    try {
      const requests = Array.from({ length: 5 }, (_, i) => ({
        id: String(i + 1),
        method: "GET",
        url: "/me/mailFolders/inbox",
      }));
      const batch = await call("/$batch", { method: "POST", body: { requests }, token: casey });
      expect(batch.status).toBe(200);
      const responses = batch.body.responses as Json[];
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
      const tooMany = await call("/$batch", {
        method: "POST",
        token: casey,
        body: {
          requests: Array.from({ length: 21 }, (_, i) => ({
            id: String(i),
            method: "GET",
            url: "/me/mailFolders",
          })),
        },
      });
      expect(tooMany.status).toBe(400);
    } finally {
      await admin("/mail/faults", "PUT", { graphThrottle: { perTenMinutes: 10000 } });
      await admin("/mail/faults/reset", "POST");
    }
  });

  it("$batch honours injected latency and errors like single routes (once per batch)", async () => {
    const requests = [1, 2, 3].map((i) => ({ id: String(i), method: "GET", url: "/me/mailFolders/inbox" }));
    try {
      await admin("/mail/faults", "PUT", { latencyMs: 400, provider: "microsoft" });
      const started = Date.now();
      const slow = await call("/$batch", { method: "POST", body: { requests } });
      const took = Date.now() - started;
      expect(slow.status).toBe(200);
      expect((slow.body.responses as Json[]).map((r) => r.status)).toEqual([200, 200, 200]);
      expect(took).toBeGreaterThanOrEqual(390);
      // The inner requests are not delayed again: three parts cost one latency, not four.
      expect(took).toBeLessThan(1_200);

      await admin("/mail/faults", "PUT", { latencyMs: 0, errorRate: 1, provider: "microsoft" });
      const failed = await call("/$batch", { method: "POST", body: { requests } });
      expect(failed.status).toBe(503);
      expect(failed.body).toMatchObject({ error: { code: "ServiceUnavailable" } });

      // Faults limited to the other provider leave Graph batches alone.
      await admin("/mail/faults", "PUT", { errorRate: 1, provider: "google" });
      expect((await call("/$batch", { method: "POST", body: { requests } })).status).toBe(200);
    } finally {
      await admin("/mail/faults/reset", "POST");
    }
  });
});

describe("Graph subscriptions", () => {
  it("validates the endpoint, then notifies with clientState; renew and delete", async () => {
    const receiver = await startReceiver((request) => {
      const token = new URL(request.url, "http://x").searchParams.get("validationToken");
      return token === null ? { status: 202 } : { status: 200, body: token, contentType: "text/plain" };
    });
    try {
      const expiration = new Date(Date.now() + 60 * 60 * 1000).toISOString();
      const created = await call("/subscriptions", {
        method: "POST",
        body: {
          changeType: "created,updated,deleted",
          notificationUrl: `${receiver.url}/graph`,
          resource: "me/mailFolders('inbox')/messages",
          expirationDateTime: expiration,
          clientState: "secret-state",
        },
      });
      expect(created.status).toBe(201);
      expect(receiver.received[0]?.url).toContain("validationToken=");
      const added = await admin(`/mailboxes/${JORDAN}/messages`, "POST", {
        from: { address: "s@example.com" },
        subject: "Notify",
        text: "x",
      });
      const notification = await waitFor(() =>
        receiver.received.find((r) => !r.url.includes("validationToken")),
      );
      const body = JSON.parse(notification.body) as { value: Json[] };
      expect(body.value[0]).toMatchObject({
        subscriptionId: created.body.id,
        clientState: "secret-state",
        changeType: "created",
        resourceData: { id: added.body.graphId },
      });
      const renewed = await call(`/subscriptions/${String(created.body.id)}`, {
        method: "PATCH",
        body: { expirationDateTime: new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString() },
      });
      expect(renewed.status).toBe(200);
      const tooLong = await call(`/subscriptions/${String(created.body.id)}`, {
        method: "PATCH",
        body: { expirationDateTime: new Date(Date.now() + 5 * 24 * 3600 * 1000).toISOString() },
      });
      expect(tooLong.status).toBe(400);
      expect((await call(`/subscriptions/${String(created.body.id)}`, { method: "DELETE" })).status).toBe(
        204,
      );
    } finally {
      await receiver.close();
    }
  });

  it("refuses a subscription whose endpoint does not echo the token", async () => {
    const receiver = await startReceiver(() => ({ status: 200, body: "wrong" }));
    try {
      const response = await call("/subscriptions", {
        method: "POST",
        body: {
          changeType: "created",
          notificationUrl: receiver.url,
          resource: "me/messages",
          expirationDateTime: new Date(Date.now() + 3600_000).toISOString(),
        },
      });
      expect(response.status).toBe(400);
    } finally {
      await receiver.close();
    }
  });
});
