import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/server.ts";
import { startTestEmulator } from "../../emulator/test-support.ts";
import { ProviderError } from "../auth/errors.ts";
import type { Config } from "../config.ts";
import { connectTestAccount, emulatorAdmin, type TestAccountTokens } from "../test/provider-accounts.ts";
import { createMailProviderClient } from "./factory.ts";
import {
  type AttachmentMeta,
  CursorExpiredError,
  type MailProviderClient,
  type ProviderMessage,
} from "./mail-provider.ts";

/**
 * ONE behaviour suite for both adapters, over real HTTP against the provider emulator
 * (house style 6). Each provider gets a fresh mailbox seeded through the emulator's admin API,
 * so counts and states are exact; one test also reads a corpus-seeded demo mailbox.
 */

const SEEDED = 24;
const UNSUBSCRIBE = "<mailto:leave@news.example?subject=unsubscribe>, <https://news.example/u/42>";

const PDF = Buffer.from(`%PDF-1.4\n${"quarterly numbers ".repeat(500)}\n%%EOF`);
const LOGO = Buffer.from("\x89PNG\r\n\x1a\n fake logo bytes", "latin1");
/** What both adapters must report for the message ATTACHED builds: the same list, name for name. */
const ATTACHMENTS = [
  {
    filename: "logo.png",
    mimeType: "image/png",
    size: LOGO.length,
    inline: true,
    contentId: "logo@corp.example",
  },
  {
    filename: "Q3 report.pdf",
    mimeType: "application/pdf",
    size: PDF.length,
    inline: false,
    contentId: null,
  },
];

/**
 * What both providers report alike (their locations, Gmail's partId and Graph's attachment id,
 * differ); our id must be the same on every read path of one provider.
 */
function common(list: readonly AttachmentMeta[] | undefined) {
  return list?.map(({ filename, mimeType, size, inline, contentId }) => ({
    filename,
    mimeType,
    size,
    inline,
    contentId,
  }));
}

/** multipart/mixed: an HTML body showing an inline logo, and a PDF attachment. */
function attachedRaw(to: string, subject: string): string {
  return [
    "From: Finance <finance@corp.example>",
    `To: ${to}`,
    `Subject: ${subject}`,
    `Message-ID: <${subject.replace(/\W+/g, "-")}@corp.example>`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="mix"',
    "",
    "--mix",
    'Content-Type: multipart/related; boundary="rel"',
    "",
    "--rel",
    "Content-Type: text/html; charset=utf-8",
    "",
    '<p>The numbers are attached. <img src="cid:logo@corp.example"></p>',
    "--rel",
    'Content-Type: image/png; name="logo.png"',
    "Content-Transfer-Encoding: base64",
    "Content-ID: <logo@corp.example>",
    'Content-Disposition: inline; filename="logo.png"',
    "",
    LOGO.toString("base64"),
    "--rel--",
    "--mix",
    'Content-Type: application/pdf; name="Q3 report.pdf"',
    'Content-Disposition: attachment; filename="Q3 report.pdf"',
    "Content-Transfer-Encoding: base64",
    "",
    PDF.toString("base64").replace(/.{76}/g, "$&\r\n"),
    "--mix--",
    "",
  ].join("\r\n");
}

/** About 400 KB of text in short lines, non-ASCII so it travels base64-encoded. */
const BIG_TEXT = "Zeile für Zeile, ünïcode and plain words.\n".repeat(9_500);
const BIG_HTML = `<html><body>${'<p>Absatz für Absatz, <a href="https://corp.example/a">a link</a>.</p>\n'.repeat(6_000)}</body></html>`;

interface Summary {
  id: string;
  graphId: string;
  threadId: string;
  labelIds: string[];
  labelNames: string[];
  folder: string;
  subject: string;
  messageId: string;
  categories: string[];
  raw?: string;
}

let emulator: RunningEmulator;
let admin: ReturnType<typeof emulatorAdmin>;

beforeAll(async () => {
  emulator = await startTestEmulator({ mail: { pushAttempts: 1 } });
  admin = emulatorAdmin(emulator);
});

afterAll(async () => {
  await emulator?.close();
});

/**
 * Back to the emulator's defaults. POST /_admin/mail/faults/reset clears usage counters but keeps
 * changed quota/throttle settings (reported), so the settings are put back explicitly.
 */
async function resetFaults(): Promise<void> {
  await admin("PUT", "mail/faults", {
    latencyMs: 0,
    errorRate: 0,
    dropRate: 0,
    provider: null,
    gmailQuota: { enabled: true, unitsPerMinute: 15_000 },
    graphThrottle: { enabled: true, maxConcurrent: 4, perTenMinutes: 10_000 },
  });
  await admin("POST", "mail/faults/reset", {});
}

const CASES = [
  { kind: "gmail", emu: "google", email: "contract.gmail@gmail.com", demo: "alex.morgan@gmail.com" },
  {
    kind: "outlook",
    emu: "microsoft",
    email: "contract.outlook@outlook.com",
    demo: "jordan.lee@outlook.com",
  },
] as const;

describe.each(CASES)("$kind adapter", ({ kind, emu, email, demo }) => {
  let tokens: TestAccountTokens;
  let client: MailProviderClient;
  const q = `provider=${emu}`;
  const mailbox = (query = "") =>
    admin<{ messages: Summary[]; labels: Record<string, { total: number }> }>(
      "GET",
      `mailboxes/${email}?${q}&limit=1000${query}`,
    );
  const stored = (id: string) =>
    admin<Summary>("GET", `mailboxes/${email}/messages/${encodeURIComponent(id)}?${q}`);
  const idOf = (m: Summary) => (kind === "gmail" ? m.id : m.graphId);
  const config = (): Pick<Config, "providers"> => ({
    providers: {
      ...({} as Config["providers"]),
      gmail: `${emulator.url}/gmail.googleapis.com`,
      graph: `${emulator.url}/graph.microsoft.com`,
    },
  });
  const makeClient = (
    account: string,
    accountTokens: TestAccountTokens,
    maxAttempts = 3,
    sleep?: (ms: number) => Promise<void>,
  ) =>
    createMailProviderClient({
      account: { id: account, userId: "user-1", provider: kind, email, displayName: "Contract Tester" },
      config: config(),
      accountTokens,
      tuning: {
        timeoutMs: 5_000,
        retry: { baseDelayMs: 10, maxDelayMs: 50, maxAttempts, ...(sleep ? { sleep } : {}) },
      },
    });

  async function deliver(subject: string, extra: Record<string, unknown> = {}): Promise<Summary> {
    return admin<Summary>("POST", `mailboxes/${email}/messages?${q}`, {
      from: { name: "News Desk", address: "desk@news.example" },
      subject,
      text: `Plain body of ${subject}`,
      html: `<p>HTML body of <b>${subject}</b></p>`,
      ...extra,
    });
  }

  beforeAll(async () => {
    emulator.control.addIdentity({ provider: emu, email, name: "Contract Tester" });
    tokens = await connectTestAccount(emulator, emu, email);
    client = makeClient(`${kind}-main`, tokens);
    const base = Date.now() - 3 * 60 * 60_000;
    // Oldest first; every third message is a newsletter with List-Unsubscribe.
    for (let index = 0; index < SEEDED; index += 1) {
      await deliver(`Seed ${String(index).padStart(2, "0")} — café ✓`, {
        internalDate: base + index * 60_000,
        ...(index % 3 === 0
          ? {
              headers: {
                "List-Unsubscribe": UNSUBSCRIBE,
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
              },
            }
          : {}),
      });
    }
  });

  it("getProfile names the mailbox and counts the inbox", async () => {
    const profile = await client.getProfile();
    expect(profile.email).toBe(email);
    expect(profile.inboxTotal).toBe(SEEDED);
    expect(profile.inboxUnread).toBe(SEEDED);
  });

  it("listMessages pages the inbox newest first, without duplicates, matching the mailbox", async () => {
    const seen: ProviderMessage[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await client.listMessages({ pageSize: 7, ...(pageToken ? { pageToken } : {}) });
      expect(page.messages.length).toBeLessThanOrEqual(7);
      seen.push(...page.messages);
      pageToken = page.nextPageToken;
      pages += 1;
    } while (pageToken && pages < 20);
    expect(pages).toBe(Math.ceil(SEEDED / 7));
    const ids = seen.map((m) => m.providerId);
    expect(new Set(ids).size).toBe(ids.length);
    const times = seen.map((m) => m.receivedAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const inbox = (await mailbox("&label=INBOX")).messages;
    expect(new Set(ids)).toEqual(new Set(inbox.map(idOf)));
    expect(seen.every((m) => m.inInbox && !m.isRead && !m.isTrashed)).toBe(true);
  });

  // Gmail's query is `in:inbox OR after:<since>`: archived mail inside the window must come too.
  it("listMessages with since adds mail received since then that left the inbox", async () => {
    const recent = await deliver("Recent, archived elsewhere", { labelIds: ["CATEGORY_PERSONAL"] });
    const inbox = (await mailbox("&label=INBOX")).messages.map(idOf);
    const ids: string[] = [];
    let pageToken: string | undefined;
    for (let pages = 0; pages < 20; pages += 1) {
      const page = await client.listMessages({
        pageSize: 10,
        since: new Date(Date.now() - 10 * 60_000),
        ...(pageToken ? { pageToken } : {}),
      });
      ids.push(...page.messages.map((m) => m.providerId));
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set([...inbox, idOf(recent)]));
  });

  it("getMessage gives bodies, sender, decoded subject and List-Unsubscribe as sent", async () => {
    const sent = await deliver("Weekly digest ünïcode", {
      headers: { "List-Unsubscribe": UNSUBSCRIBE, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
    const message = await client.getMessage(idOf(sent));
    expect(message).not.toBeNull();
    expect(message?.subject).toBe("Weekly digest ünïcode");
    expect(message?.from).toEqual({ name: "News Desk", address: "desk@news.example" });
    expect(message?.to.map((a) => a.address)).toEqual([email]);
    expect(message?.bodyHtml).toContain("HTML body of <b>Weekly digest ünïcode</b>");
    // Gmail gives the text part as sent; Graph gives only HTML (we ask for it), so the text is
    // derived from it.
    expect(message?.bodyText).toContain(
      kind === "gmail" ? "Plain body of Weekly digest ünïcode" : "HTML body of Weekly digest ünïcode",
    );
    expect(message?.headers.listUnsubscribe).toBe(UNSUBSCRIBE);
    expect(message?.headers.listUnsubscribePost).toBe("List-Unsubscribe=One-Click");
    expect(message?.internetMessageId).toBe(sent.messageId);
    const plain = await client.getMessage(idOf(await deliver("No list headers")));
    expect(plain?.headers.listUnsubscribe).toBeNull();
    await client.archive([idOf(sent)]);
  });

  it("reports the same attachment metadata (name, type, size) on every read path", async () => {
    const cursor = await client.getCursor();
    const sent = await admin<Summary>("POST", `mailboxes/${email}/messages?${q}`, {
      raw: attachedRaw(email, "Quarterly numbers"),
    });
    const plain = await deliver("No attachments here");
    const single = await client.getMessage(idOf(sent));
    expect(common(single?.attachments)).toEqual(ATTACHMENTS);
    const ids = single?.attachments.map((a) => a.id);
    // The bytes stream from the provider (Gmail attachments.get decoded, Graph $value).
    for (const [index, bytes] of [LOGO, PDF].entries()) {
      const download = await client.openAttachment(idOf(sent), single?.attachments[index] ?? {});
      expect(Buffer.from(await buffer(download.body)).equals(Buffer.from(bytes))).toBe(true);
    }
    // Our id finds the part again when the provider's own id is stale or unknown.
    const stale = await client.openAttachment(idOf(sent), {
      id: ids?.[1],
      ref: single?.attachments[1]?.ref ?? "",
      fetchId: "ANGjdJstale",
    });
    expect(Buffer.from(await buffer(stale.body)).equals(Buffer.from(PDF))).toBe(true);
    await expect(
      client.openAttachment(idOf(plain), { id: "AAAAAAAAAAAAAAAA", ref: "9.9" }),
    ).rejects.toMatchObject({ status: 404 });
    expect(single?.bodyHtml).toContain("The numbers are attached.");
    expect((await client.getMessage(idOf(plain)))?.attachments).toEqual([]);

    const page = await client.listMessages({ pageSize: 5 });
    const listed = new Map(page.messages.map((m) => [m.providerId, m]));
    expect(common(listed.get(idOf(sent))?.attachments)).toEqual(ATTACHMENTS);
    expect(listed.get(idOf(sent))?.attachments.map((a) => a.id)).toEqual(ids);
    expect(listed.get(idOf(plain))?.attachments).toEqual([]);

    const changed = new Map<string, ProviderMessage>();
    let next = cursor;
    for (let round = 0; round < 10; round += 1) {
      const batch = await client.listChanges(next);
      for (const message of batch.upserted) changed.set(message.providerId, message);
      next = batch.cursor;
      if (!batch.hasMore) break;
    }
    expect(common(changed.get(idOf(sent))?.attachments)).toEqual(ATTACHMENTS);
    expect(changed.get(idOf(sent))?.attachments.map((a) => a.id)).toEqual(ids);
    expect(changed.get(idOf(plain))?.attachments).toEqual([]);
    await client.archive([idOf(sent), idOf(plain)]);
  });

  it("a 400 KB text body and 400 KB HTML body arrive whole, singly and in a page", async () => {
    const textOnly = await admin<Summary>("POST", `mailboxes/${email}/messages?${q}`, {
      from: { name: "Logs", address: "logs@corp.example" },
      subject: "Long text report",
      text: BIG_TEXT,
    });
    const both = await deliver("Long report, both ways", { text: BIG_TEXT, html: BIG_HTML });
    const crlf = BIG_TEXT.replace(/\n/g, "\r\n");
    expect(Buffer.byteLength(crlf)).toBeGreaterThan(400_000);

    const single = await client.getMessage(idOf(textOnly));
    expect(single?.bodyText).toBe(crlf);
    const page = await client.listMessages({ pageSize: 5 });
    const listed = new Map(page.messages.map((m) => [m.providerId, m]));
    expect(listed.get(idOf(textOnly))?.bodyText).toBe(crlf);

    for (const message of [await client.getMessage(idOf(both)), listed.get(idOf(both))]) {
      expect(message?.bodyHtml).toBe(BIG_HTML.replace(/\n/g, "\r\n"));
      // Gmail: the text part; Outlook: text derived from the HTML, links kept readable. Either way
      // the end of the body is there.
      const lastWords =
        kind === "gmail"
          ? "Zeile für Zeile, ünïcode and plain words.\r\n"
          : "Absatz für Absatz, a link [https://corp.example/a].";
      expect(message?.bodyText?.endsWith(lastWords)).toBe(true);
    }
    await client.archive([idOf(textOnly), idOf(both)]);
  });

  it("getCalendarPart reads an invitation's iCalendar text, within a size limit", async () => {
    const invite = await admin<Summary>("POST", `mailboxes/${email}/invitation?${q}`, {});
    const message = await client.getMessage(idOf(invite));
    expect(
      message?.attachments.some((a) => a.mimeType === "text/calendar" || a.filename.endsWith(".ics")),
    ).toBe(true);
    const text = await client.getCalendarPart(idOf(invite), 256 * 1024);
    expect(text).toContain("BEGIN:VCALENDAR");
    expect(text).toContain("SUMMARY:Roadmap review");
    expect(await client.getCalendarPart(idOf(invite), 100)).toBeNull();
    expect(await client.getCalendarPart(idOf(await deliver("No invitation")), 256 * 1024)).toBeNull();
  });

  it("getMessage answers null for an unknown id", async () => {
    const unknown = kind === "gmail" ? "00000000000000ff" : "AQMkADAwATNiZmYAZC1unknownAAA=";
    expect(await client.getMessage(unknown)).toBeNull();
  });

  it("reads real corpus mail (charsets, multipart, encoded words) from a demo mailbox", async () => {
    const demoTokens = await connectTestAccount(emulator, emu, demo);
    const demoClient = createMailProviderClient({
      account: { id: `${kind}-demo`, userId: "user-2", provider: kind, email: demo, displayName: "Demo" },
      config: config(),
      accountTokens: demoTokens,
    });
    const page = await demoClient.listMessages({ pageSize: 40 });
    expect(page.messages).toHaveLength(40);
    expect(page.totalEstimate).toBeGreaterThan(40);
    for (const message of page.messages) {
      expect(message.from.address).toMatch(/@/);
      expect(message.bodyHtml ?? message.bodyText).toBeTruthy();
      expect(message.subject).not.toMatch(/=\?[^?]+\?[bq]\?/i);
    }
    expect(page.messages.some((m) => m.headers.listUnsubscribe !== null)).toBe(true);
  });

  it("listChanges reports messages added, changed elsewhere and deleted after getCursor", async () => {
    const cursor = await client.getCursor();
    const before = (await mailbox("&label=INBOX")).messages;
    const readElsewhere = before[2] as Summary;
    const deleted = before[3] as Summary;
    const added = await deliver("Arrived after the cursor");
    await admin("POST", `mailboxes/${email}/messages/${readElsewhere.id}/modify?${q}`, {
      removeLabelIds: ["UNREAD"],
    });
    await admin("DELETE", `mailboxes/${email}/messages/${deleted.id}?${q}`);

    const upserted = new Map<string, ProviderMessage>();
    const removed = new Set<string>();
    let next = cursor;
    for (let round = 0; round < 10; round += 1) {
      const batch = await client.listChanges(next);
      for (const message of batch.upserted) upserted.set(message.providerId, message);
      for (const id of batch.removed) removed.add(id);
      expect(batch.cursor).not.toBe("");
      next = batch.cursor;
      if (!batch.hasMore) break;
    }
    expect(upserted.get(idOf(added))?.subject).toBe("Arrived after the cursor");
    expect(upserted.get(idOf(readElsewhere))?.isRead).toBe(true);
    expect(removed.has(idOf(deleted))).toBe(true);
    expect(upserted.has(idOf(deleted))).toBe(false);
    // Nothing more happened: the stored cursor yields an empty batch.
    const quiet = await client.listChanges(next);
    expect(quiet.upserted).toEqual([]);
    expect(quiet.removed).toEqual([]);
  });

  it("archive, unarchive and trash move mail in the mailbox and return the ids to re-key by", async () => {
    const [a, b] = (await mailbox("&label=INBOX")).messages as [Summary, Summary];
    const archived = await client.archive([idOf(a), idOf(b)]);
    expect([...archived.keys()].sort()).toEqual([idOf(a), idOf(b)].sort());
    const newA = archived.get(idOf(a)) as string;
    if (kind === "outlook") expect(newA).not.toBe(idOf(a));
    else expect(newA).toBe(idOf(a));
    expect((await stored(newA)).folder).toBe("archive");
    const archivedMessage = await client.getMessage(newA);
    expect(archivedMessage?.inInbox).toBe(false);
    expect(archivedMessage?.isTrashed).toBe(false);

    const back = await client.unarchive([newA]);
    const restored = back.get(newA) as string;
    expect((await stored(restored)).folder).toBe("inbox");

    const trashed = await client.trash([restored]);
    const inTrash = trashed.get(restored) as string;
    expect((await stored(inTrash)).folder).toBe("deleteditems");
    expect((await client.getMessage(inTrash))?.isTrashed).toBe(true);
  });

  it("findMoved finds where a move took a message its old id no longer finds", async () => {
    // An apostrophe in the Message-ID: Graph's filter literal must double it.
    const messageId = "<o'brien.moved.1@corp.example>";
    const raw = [
      "From: Finance <finance@corp.example>",
      `To: ${email}`,
      "Subject: Moved away",
      `Message-ID: ${messageId}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Filed elsewhere.",
      "",
    ].join("\r\n");
    const delivered = await admin<Summary>("POST", `mailboxes/${email}/messages?${q}`, { raw });
    const oldId = idOf(delivered);
    expect((await client.getMessage(oldId))?.internetMessageId).toBe(messageId);
    const newId = (await client.archive([oldId])).get(oldId) as string;
    const found = await client.findMoved(messageId);
    if (kind === "outlook") {
      expect(await client.getMessage(oldId)).toBeNull();
      expect(found.map((m) => m.providerId)).toEqual([newId]);
      expect(found[0]).toMatchObject({ subject: "Moved away", inInbox: false, isTrashed: false });
    } else {
      // Gmail ids survive moves: nothing to look for.
      expect(newId).toBe(oldId);
      expect(found).toEqual([]);
    }
    expect(await client.findMoved("<nobody.ever@nowhere.example>")).toEqual([]);
  });

  it("setRead, setStarred and setFlagged round-trip independently", async () => {
    const target = (await mailbox("&label=INBOX")).messages[5] as Summary;
    const id = idOf(target);
    await client.setRead([id], true);
    await client.setStarred([id], true);
    let state = await stored(id);
    expect(state.labelIds).not.toContain("UNREAD");
    expect(state.labelIds).toContain("STARRED");
    let message = await client.getMessage(id);
    expect(message).toMatchObject({ isRead: true, isStarred: true, isFlagged: false });

    await client.setFlagged([id], true);
    message = await client.getMessage(id);
    expect(message).toMatchObject({ isStarred: true, isFlagged: true });
    state = await stored(id);
    // Gmail: the mailbox's own "Flagged by Mailwise" label, made on first use; never IMPORTANT.
    if (kind === "gmail") {
      expect(state.labelNames).toContain("Flagged by Mailwise");
      expect(state.labelIds).not.toContain("IMPORTANT");
    } else expect(state.categories).toContain("Flagged by Mailwise");

    await client.setStarred([id], false);
    await client.setRead([id], false);
    message = await client.getMessage(id);
    expect(message).toMatchObject({ isRead: false, isStarred: false, isFlagged: true });
    await client.setFlagged([id], false);
    expect(await client.getMessage(id)).toMatchObject({ isFlagged: false, isStarred: false });
    // Ids do not change for property edits, on either provider.
    expect((await stored(id)).folder).toBe("inbox");
  });

  it("send delivers with the right headers and keeps a copy in Sent", async () => {
    const subject = `Hello ✉ from ${kind}\r\nBcc: injected@evil.example`;
    await client.send({
      to: [{ name: "Ünïcode Friend", address: "friend@elsewhere.example" }],
      cc: [],
      bcc: [],
      subject,
      body: "Line one\nLine two — with UTF-8",
    });
    const sent = (await mailbox("&label=SENT")).messages[0] as Summary;
    const raw = (await stored(sent.id)).raw ?? "";
    expect(sent.subject).toContain(`Hello ✉ from ${kind}`);
    expect(raw).not.toMatch(/^Bcc: injected@evil\.example/im);
    expect(raw).toMatch(/^To: .*friend@elsewhere\.example/im);
  });

  // Gmail threads by threadId + References; Outlook by createReply, PATCH and send of that draft.
  it("a reply threads with the original", async () => {
    const original = await deliver("Question for you");
    const message = await client.getMessage(idOf(original));
    await client.send({
      to: [message?.from ?? { name: "", address: "desk@news.example" }],
      cc: [],
      bcc: [],
      subject: "Re: Question for you",
      body: "Answer",
      replyTo: {
        threadId: message?.threadId ?? null,
        internetMessageId: message?.internetMessageId ?? null,
        references: message?.headers.references ?? null,
      },
    });
    const sent = (await mailbox("&label=SENT")).messages[0] as Summary;
    expect(sent.subject).toBe("Re: Question for you");
    expect(sent.threadId).toBe(original.threadId);
    expect((await stored(sent.id)).raw).toContain(`In-Reply-To: ${original.messageId}`);
  });

  it("createDraft saves a draft in the mailbox", async () => {
    const draft = await client.createDraft({
      to: [{ name: "", address: "someone@elsewhere.example" }],
      cc: [],
      bcc: [],
      subject: "Draft by Mailwise",
      body: "Draft text",
    });
    const state = await stored(draft.providerId);
    expect(state.folder).toBe("drafts");
    expect(state.subject).toBe("Draft by Mailwise");
  });

  it("saveDraft creates then updates one draft; listDrafts and getDraft read it back; deleteDraft removes it", async () => {
    const base = { cc: [], bcc: [{ name: "", address: "hidden@elsewhere.example" }], body: "" };
    const to = [{ name: "Ann", address: "ann@elsewhere.example" }];
    const { draftId } = await client.saveDraft({ ...base, to, subject: "Autosave 1", body: "first" });
    const again = await client.saveDraft(
      { ...base, to, subject: "Autosave 2", body: "second text" },
      draftId,
    );
    expect(again.draftId).toBe(draftId);
    const page = await client.listDrafts({ pageSize: 10 });
    const listed = page.drafts.filter((d) => d.draftId === draftId);
    expect(listed).toHaveLength(1);
    expect(listed[0]?.message.subject).toBe("Autosave 2");
    const read = await client.getDraft(draftId);
    expect(read?.message.to).toEqual([expect.objectContaining({ address: "ann@elsewhere.example" })]);
    expect(read?.bcc).toEqual([expect.objectContaining({ address: "hidden@elsewhere.example" })]);
    expect(read?.message.bodyText ?? read?.message.bodyHtml).toContain("second text");
    expect(
      (await mailbox("&label=DRAFT")).messages.filter((m) => m.subject.startsWith("Autosave")),
    ).toHaveLength(1);
    await client.deleteDraft(draftId);
    expect(await client.getDraft(draftId)).toBeNull();
    await expect(client.deleteDraft(draftId)).resolves.toBeUndefined();
    // Deleted at the provider while compose was open: the next save makes a new draft.
    const revived = await client.saveDraft({ ...base, to, subject: "Autosave 3" }, draftId);
    expect(revived.draftId).not.toBe(draftId);
    expect((await client.getDraft(revived.draftId))?.message.subject).toBe("Autosave 3");
    await client.deleteDraft(revived.draftId);
  });

  it("sendDraft sends the stored draft once and it leaves Drafts", async () => {
    const { draftId } = await client.saveDraft({
      to: [{ name: "", address: email }],
      cc: [],
      bcc: [],
      subject: "Draft sent to myself",
      body: "from the drafts folder",
    });
    await client.sendDraft(draftId);
    expect(await client.getDraft(draftId)).toBeNull();
    const sent = (await mailbox("&label=SENT")).messages.filter((m) => m.subject === "Draft sent to myself");
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect((await mailbox("&label=DRAFT")).messages.some((m) => m.subject === "Draft sent to myself")).toBe(
      false,
    );
  });

  it("an expired cursor raises CursorExpiredError", async () => {
    const cursor = await client.getCursor();
    await deliver("Change before expiry");
    await admin("POST", `mailboxes/${email}/expire-sync?${q}`, {});
    await expect(client.listChanges(cursor)).rejects.toBeInstanceOf(CursorExpiredError);
  });

  it("an expired access token is refreshed once, transparently", async () => {
    const before = tokens.refreshes;
    await admin("POST", "tokens/expire", { email });
    const profile = await client.getProfile();
    expect(profile.email).toBe(email);
    expect(tokens.refreshes).toBeGreaterThan(before);
    expect(tokens.refreshes).toBeLessThanOrEqual(before + 2);
    // Batched calls refresh too (expired again, then a listing that goes through $batch / batch).
    await admin("POST", "tokens/expire", { email });
    const page = await client.listMessages({ pageSize: 5 });
    expect(page.messages).toHaveLength(5);
  });

  it("a revoked grant ends in a reauth ProviderError", async () => {
    const other = `revoked.${email}`;
    emulator.control.addIdentity({ provider: emu, email: other, name: "Revoked Tester" });
    const revokedTokens = await connectTestAccount(emulator, emu, other);
    const revoked = createMailProviderClient({
      account: { id: `${kind}-revoked`, userId: "user-3", provider: kind, email: other, displayName: "R" },
      config: config(),
      accountTokens: revokedTokens,
    });
    await admin("POST", "tokens/revoke", { email: other, provider: emu });
    const failure = await revoked.getProfile().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
  });

  it("survives quota and throttling (429 then success) without lost or doubled results", async () => {
    const expected = (await mailbox("&label=INBOX")).messages.slice(0, 12).map(idOf);
    let waits = 0;
    // Waiting also moves the emulator clock, so Gmail's per-minute quota window turns over.
    const sleep = async (ms: number) => {
      waits += 1;
      emulator.control.advanceClock(61);
      await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 100)));
    };
    const limited = makeClient(`${kind}-limited`, tokens, 6, sleep);
    if (kind === "gmail") {
      // list (5) + 12 gets (60) cannot fit a 40-unit minute: part of the batch comes back 429.
      await admin("PUT", "mail/faults", { gmailQuota: { enabled: true, unitsPerMinute: 40 } });
    } else {
      // One request at a time per mailbox, and slow answers so parallel calls overlap: 429 + Retry-After.
      await admin("PUT", "mail/faults", {
        latencyMs: 40,
        provider: "microsoft",
        graphThrottle: { maxConcurrent: 1 },
      });
    }
    try {
      const [page, profile] = await Promise.all([
        limited.listMessages({ pageSize: 12 }),
        limited.getProfile(),
      ]);
      expect(page.messages.map((m) => m.providerId)).toEqual(expected);
      expect(profile.email).toBe(email);
      expect(waits).toBeGreaterThan(0);
    } finally {
      await resetFaults();
    }
  });

  it("survives injected 5xx answers with retries", async () => {
    const expected = (await mailbox("&label=INBOX")).messages.slice(0, 10).map(idOf);
    const flaky = makeClient(`${kind}-flaky`, tokens, 8);
    await admin("PUT", "mail/faults", { errorRate: 0.3, provider: emu });
    try {
      const first = await flaky.listMessages({ pageSize: 5 });
      const second = await flaky.listMessages({
        pageSize: 5,
        ...(first.nextPageToken ? { pageToken: first.nextPageToken } : {}),
      });
      expect([...first.messages, ...second.messages].map((m) => m.providerId)).toEqual(expected);
    } finally {
      await resetFaults();
    }
  });

  it("a long provider delay is handed to the job layer as a rate_limit with retryAfterMs", async () => {
    const limited = makeClient(`${kind}-daily`, tokens, 3, async () => {});
    if (kind === "gmail")
      await admin("PUT", "mail/faults", { gmailQuota: { enabled: true, unitsPerMinute: 1 } });
    else await admin("PUT", "mail/faults", { graphThrottle: { enabled: true, perTenMinutes: 1 } });
    try {
      const failure = await (async () => {
        // The first call may still fit the window; the next cannot.
        for (let i = 0; i < 3; i += 1) await limited.getCursor();
        return undefined;
      })().catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(ProviderError);
      expect((failure as ProviderError).kind).toBe("rate_limit");
      expect((failure as { retryAfterMs?: number }).retryAfterMs).toBeGreaterThan(0);
    } finally {
      await resetFaults();
    }
  });

  it("watch starts push and stopWatch ends it", async () => {
    const receiver = await startValidatingReceiver();
    try {
      const result = await client.watch(`${receiver.url}/api/push/${kind}`, "client-state-123");
      expect(result.expiresAt.getTime()).toBeGreaterThan(Date.now());
      if (kind === "outlook") {
        expect(result.subscriptionId).toBeTruthy();
        const renewed = await client.watch(`${receiver.url}/api/push/${kind}`, "client-state-123", {
          subscriptionId: result.subscriptionId as string,
        });
        expect(renewed.subscriptionId).toBe(result.subscriptionId);
      } else {
        expect(
          (await admin<{ watch: unknown }>("GET", `mailboxes/${email}?${q}&limit=1`)).watch,
        ).not.toBeNull();
      }
      await client.stopWatch(result.subscriptionId);
      const after = await admin<{ watch: unknown; subscriptions: number }>(
        "GET",
        `mailboxes/${email}?${q}&limit=1`,
      );
      expect(kind === "gmail" ? after.watch : after.subscriptions).toBeFalsy();
    } finally {
      await receiver.close();
    }
  });
});

/** Answers Graph's subscription validation (echo validationToken) and accepts notifications. */
async function startValidatingReceiver(): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    const token = new URL(req.url ?? "/", "http://x").searchParams.get("validationToken");
    req.resume();
    req.on("end", () => {
      res.writeHead(token === null ? 202 : 200, { "content-type": "text/plain" });
      res.end(token ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
