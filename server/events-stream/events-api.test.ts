import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveEvents } from "../../contract/live-events.ts";
import { PEOPLE } from "../test/auth-fixture.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";
import { openStream } from "./stream-reader.fixture.ts";

const EMAIL = PEOPLE.alex;
const enc = encodeURIComponent(EMAIL);

/** Signs in, lets the first sync finish and push register, as a person's open tab would find it. */
async function syncedAccount(f: SyncFixture) {
  await f.admin("POST", `mailboxes/${enc}/generate`, { count: 20, seed: 3, days: 10 });
  const session = await f.signIn("gmail", EMAIL);
  await waitUntil(
    async () => {
      const s = await f.state(session.accountId);
      return s?.backfillDone && s.pushExpiresAt && s.status === "idle";
    },
    20_000,
    "first sync with push",
  );
  return session;
}

describe("live inbox stream (PGlite, one process)", () => {
  let f: SyncFixture;
  let session: { token: string; accountId: string; userId: string };
  beforeAll(async () => {
    f = await startSyncFixture("pglite");
    session = await syncedAccount(f);
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  it("refuses a request without a session in the API's error shape", async () => {
    const r = await fetch(`${f.url}/api/events`);
    expect(r.status).toBe(401);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBeTruthy();
  });

  it("pushed mail arrives as mail.new rows; a read on another device as mail.changed; resume replays", async () => {
    const stream = await openStream(f.url, session.token);
    expect(stream.status).toBe(200);
    const ready = await stream.next((e) => e.event === "ready");
    expect(ready.data).toEqual({ resumed: false });
    const added = await f.admin("POST", `mailboxes/${enc}/messages`, {
      from: { name: "Robin", address: "robin@example.org" },
      subject: "Live dinner on Friday?",
      text: "Dinner on Friday?",
    });
    const fresh = await stream.next(
      (e) => e.event === "mail.new" && JSON.stringify(e.data).includes("Live dinner on Friday?"),
    );
    const row = (fresh.data as LiveEvents["mail.new"]).emails[0];
    expect(row).toMatchObject({
      subject: "Live dinner on Friday?",
      isRead: false,
      accountId: session.accountId,
    });
    expect(row?.bodyHtml).toBeNull();
    await stream.next((e) => e.event === "sync.progress");

    // Read at the provider (another device): the stored row changes, and the stream says so.
    stream.close();
    const lastId = stream.events.at(-1)?.id;
    await f.admin("POST", `mailboxes/${enc}/messages/${(added.json as { id: string }).id}/modify`, {
      removeLabelIds: ["UNREAD"],
    });
    await waitUntil(
      async () => (await f.rows(session.accountId)).find((r) => r.id === row?.id)?.isRead,
      10_000,
      "read synced",
    );
    // The tab was away meanwhile: it resumes from its last id and gets what it missed.
    const again = await openStream(f.url, session.token, lastId);
    const changed = await again.next((e) => e.event === "mail.changed");
    expect(changed.data).toMatchObject({ ids: [row?.id], emails: [{ id: row?.id, isRead: true }] });
    expect((await again.next((e) => e.event === "ready")).data).toEqual({ resumed: true });
    again.close();
  }, 30_000);

  it("an action in one tab reaches the other tab as mail.changed with its change", async () => {
    const other = await openStream(f.url, session.token);
    await other.next((e) => e.event === "ready");
    const [target] = (await f.rows(session.accountId)).filter((r) => r.inInbox);
    if (!target) throw new Error("no inbox row");
    const r = await fetch(`${f.url}/api/emails/${target.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: JSON.stringify({ isArchived: true }),
    });
    expect(r.status).toBeLessThan(300);
    const changed = await other.next(
      (e) => e.event === "mail.changed" && JSON.stringify(e.data).includes(target.id),
    );
    expect(changed.data).toEqual({ ids: [target.id], change: { isArchived: true }, emails: [] });
    other.close();
  }, 20_000);

  it("a resume id from another process or before a restart gets refetch", async () => {
    const stream = await openStream(f.url, session.token, "otherepoch.12");
    const first = await stream.next(() => true);
    expect(first).toMatchObject({ event: "refetch", data: { reason: "gap" } });
    stream.close();
  });
});

describe("live inbox across processes (PostgreSQL LISTEN/NOTIFY)", () => {
  let f: SyncFixture;
  beforeAll(async () => {
    // This app serves HTTP only; the sync runs in another set of services (a worker process).
    f = await startSyncFixture("postgres", {}, { role: "web" });
    await f.extraServices("worker");
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  it("mail synced by the worker reaches the stream held by the web process", async () => {
    const session = await syncedAccount(f);
    const stream = await openStream(f.url, session.token);
    await stream.next((e) => e.event === "ready");
    await f.admin("POST", `mailboxes/${enc}/messages`, {
      from: { name: "Sam", address: "sam@example.org" },
      subject: "Crossing processes",
      text: "Hello from the worker",
    });
    const fresh = await stream.next(
      (e) => e.event === "mail.new" && JSON.stringify(e.data).includes("Crossing processes"),
      15_000,
    );
    expect((fresh.data as LiveEvents["mail.new"]).emails[0]?.subject).toBe("Crossing processes");
    stream.close();
  }, 60_000);
});
