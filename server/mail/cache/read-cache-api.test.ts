import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Email, emailListResponseSchema } from "../../../contract/mail.ts";
import { openDatabase } from "../../db/client.ts";
import { emails } from "../../db/schema.ts";
import { apiSuite } from "../../test/api-suite.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import { createEmails, signedInUser } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../../test/sync-fixture.ts";

async function get(url: string, token: string, headers: Record<string, string> = {}) {
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: r.status, headers: r.headers, bytes: Buffer.from(await r.arrayBuffer()) };
}

describe("read cache over HTTP (PGlite)", () => {
  const suite = apiSuite("pglite");

  it("answers 304 to the ETag it gave, and a new body with a new ETag after the person's write", async () => {
    const { account, token } = await signedInUser(suite.db);
    const [first] = await createEmails(suite.db, account, 3);
    if (!first) throw new Error("no email");
    const url = `${suite.server.url}/api/emails?limit=50`;
    const a = await get(url, token);
    expect(a.status).toBe(200);
    // Mail must not be kept by the browser's HTTP cache; the ETag serves the client's memory.
    expect(a.headers.get("cache-control")).toBe("no-store");
    const etag = a.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const same = await get(url, token, { "if-none-match": etag ?? "" });
    expect(same.status).toBe(304);
    expect(same.bytes.length).toBe(0);

    // A change no event announces (as a test writes it), then any write of the person: the
    // write's answer leaves only after the person's kept answers are gone.
    await suite.db.update(emails).set({ subject: "Changed behind the cache" }).where(eq(emails.id, first.id));
    expect((await get(url, token, { "if-none-match": etag ?? "" })).status).toBe(304);
    const put = await suite.api("PUT", `/api/inbox-zero/processed/${first.id}`, token);
    expect(put.status).toBe(200);
    const b = await get(url, token, { "if-none-match": etag ?? "" });
    expect(b.status).toBe(200);
    expect(b.headers.get("etag")).not.toBe(etag);
    const page = emailListResponseSchema.parse(JSON.parse(b.bytes.toString()));
    expect(page.emails.find((e) => e.id === first.id)?.subject).toBe("Changed behind the cache");
  });

  it("a write to one email drops its own answer and every list, and keeps other opened emails", async () => {
    const { account, token } = await signedInUser(suite.db);
    const [one, other] = await createEmails(suite.db, account, 2);
    if (!one || !other) throw new Error("no emails");
    const open = async (id: string) =>
      JSON.parse((await get(`${suite.server.url}/api/emails/${id}`, token)).bytes.toString()) as Email;
    const list = async () =>
      emailListResponseSchema.parse(
        JSON.parse((await get(`${suite.server.url}/api/emails?limit=50`, token)).bytes.toString()),
      ).emails;
    await open(one.id);
    await open(other.id);
    await list();
    // Changed behind the cache, as a test can: only a dropped answer shows it.
    await suite.db.update(emails).set({ subject: "Changed behind the cache" }).where(eq(emails.id, other.id));

    const patched = await suite.api("PATCH", `/api/emails/${one.id}`, token, { isRead: true });
    expect(patched.status).toBe(200);
    expect((await open(one.id)).isRead).toBe(true);
    expect((await list()).find((e) => e.id === other.id)?.subject).toBe("Changed behind the cache");
    // The other email's kept answer was not touched by a change to this one.
    expect((await open(other.id)).subject).not.toBe("Changed behind the cache");
    // A write that does not name its emails drops every answer of the person.
    expect((await suite.api("PUT", `/api/inbox-zero/processed/${one.id}`, token)).status).toBe(200);
    expect((await open(other.id)).subject).toBe("Changed behind the cache");
  });

  it("sends kept brotli or gzip bytes as the client takes them, and plain JSON to one that takes neither", async () => {
    const { account, token } = await signedInUser(suite.db);
    await createEmails(suite.db, account, 30);
    const url = `${suite.server.url}/api/emails?limit=30`;
    // Node's fetch asks for gzip by itself: the plain client says identity.
    const plain = await get(url, token, { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const zipped = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, "accept-encoding": "gzip" },
    });
    // fetch decodes gzip itself: the header and a body equal to the plain one show the round trip.
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toContain("accept-encoding");
    expect(Buffer.from(await zipped.arrayBuffer()).equals(plain.bytes)).toBe(true);
    const browser = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, "accept-encoding": "gzip, deflate, br, zstd" },
    });
    expect(browser.headers.get("content-encoding")).toBe("br");
    expect(Buffer.from(await browser.arrayBuffer()).equals(plain.bytes)).toBe(true);
    const refused = await get(url, token, { "accept-encoding": "gzip;q=0, identity" });
    expect(refused.headers.get("content-encoding")).toBeNull();
    expect(JSON.parse(refused.bytes.toString())).toEqual(JSON.parse(plain.bytes.toString()));
  });

  it("keeps each person's answers apart", async () => {
    const a = await signedInUser(suite.db);
    const b = await signedInUser(suite.db);
    await createEmails(suite.db, a.account, 2, () => ({ subject: "For A" }));
    await createEmails(suite.db, b.account, 1, () => ({ subject: "For B" }));
    const url = `${suite.server.url}/api/emails?limit=10`;
    const ofA = emailListResponseSchema.parse(JSON.parse((await get(url, a.token)).bytes.toString()));
    const ofB = emailListResponseSchema.parse(JSON.parse((await get(url, b.token)).bytes.toString()));
    expect(ofA.emails.map((e) => e.subject)).toEqual(["For A", "For A"]);
    expect(ofB.emails.map((e) => e.subject)).toEqual(["For B"]);
  });
});

const EMAIL = PEOPLE.alex;
const enc = encodeURIComponent(EMAIL);

describe("read cache across two web processes (PostgreSQL LISTEN/NOTIFY)", () => {
  let f: SyncFixture;
  let second: TestServer | undefined;
  let closeSecondDb: (() => Promise<void>) | undefined;
  let secondUrl = "";
  beforeAll(async () => {
    f = await startSyncFixture("postgres", {}, { role: "web" });
    await f.extraServices("worker");
    // Another web process: its own connection pool, services, LISTEN connection and caches.
    const db = await openDatabase({ database: f.database.config });
    closeSecondDb = () => db.close();
    const { PORT: _port, PUBLIC_URL: _url, ...env } = f.env;
    second = await startTestServer(db, env, { role: "web" });
    secondUrl = second.url;
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await closeSecondDb?.();
    await f?.close();
  });

  it("a write through one web process shows in the other's list within a second", async () => {
    await f.admin("POST", `mailboxes/${enc}/generate`, { count: 12, seed: 5, days: 5 });
    const session = await f.signIn("gmail", EMAIL);
    await waitUntil(
      async () => {
        const s = await f.state(session.accountId);
        return s?.backfillDone && s.status === "idle";
      },
      20_000,
      "first sync",
    );
    const url = `${secondUrl}/api/emails?limit=50`;
    const listed = async () =>
      emailListResponseSchema.parse(JSON.parse((await get(url, session.token)).bytes.toString())).emails;
    const before = await listed();
    const target = before.find((e: Email) => !e.isRead);
    if (!target) throw new Error("no unread email");
    const openedInSecond = async () =>
      JSON.parse(
        (await get(`${secondUrl}/api/emails/${target.id}`, session.token)).bytes.toString(),
      ) as Email;
    expect((await openedInSecond()).isRead).toBe(false);
    // Kept in the second process now: the same ETag comes back as 304.
    const kept = await get(url, session.token);
    const etag = kept.headers.get("etag") ?? "";
    expect((await get(url, session.token, { "if-none-match": etag })).status).toBe(304);

    const patched = await fetch(`${f.url}/api/emails/${target.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: JSON.stringify({ isRead: true }),
    });
    expect(patched.status).toBe(200);
    const wrote = performance.now();
    // The writing process itself answers the new state at once.
    const own = await get(`${f.url}/api/emails?limit=50`, session.token);
    const ownRow = emailListResponseSchema
      .parse(JSON.parse(own.bytes.toString()))
      .emails.find((e) => e.id === target.id);
    expect(ownRow?.isRead).toBe(true);
    let seenAfter = Number.POSITIVE_INFINITY;
    while (performance.now() - wrote < 5_000) {
      const row = (await listed()).find((e) => e.id === target.id);
      if (row?.isRead) {
        seenAfter = performance.now() - wrote;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seenAfter).toBeLessThan(1_000);
    // The opened email, kept in the second process, went with the write's notice too.
    expect((await openedInSecond()).isRead).toBe(true);
  }, 90_000);

  it("a logout through one web process ends the session in the other within a second, cache or not", async () => {
    const session = await f.signIn("gmail", EMAIL);
    const inSecond = () => get(`${secondUrl}/api/auth/session`, session.token);
    // The second process has the session's row cached now (decision 0089).
    expect((await inSecond()).status).toBe(200);
    const out = await fetch(`${f.url}/api/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(out.status).toBe(200);
    const loggedOut = performance.now();
    let refusedAfter = Number.POSITIVE_INFINITY;
    while (performance.now() - loggedOut < 5_000) {
      if ((await inSecond()).status === 401) {
        refusedAfter = performance.now() - loggedOut;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    // The cache keeps a row 2 s: only the notice makes this faster than that.
    expect(refusedAfter).toBeLessThan(1_000);
  }, 30_000);
});
