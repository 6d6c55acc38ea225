import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactListSchema } from "../../../contract/contacts.ts";
import { composeMessage } from "../../../emulator/mailbox/compose.ts";
import { contacts, mailAccounts } from "../../db/schema.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import { consentAtEmulator } from "../../test/emulator-consent.ts";
import { callApi, emulatorProvider, type Provider } from "../../test/slow-provider.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../../test/sync-fixture.ts";

const DAY = 24 * 3600 * 1000;

/**
 * Issue 36's contacts through the real server, the emulator and sync: suggestions come from mail
 * received and sent on both of the person's accounts, rank by use, never name the person, and
 * belong to them alone (export, deletion).
 */
describe("recipient suggestions (pglite)", () => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture("pglite");
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });

  const api = (method: string, path: string, token: string, body?: unknown) =>
    callApi(f, method, path, token, body);

  async function suggest(token: string, q: string, limit = 8) {
    const answer = await api("GET", `/api/contacts?q=${encodeURIComponent(q)}&limit=${limit}`, token);
    expect(answer.status).toBe(200);
    return contactListSchema.parse(answer.json).contacts;
  }

  async function deliver(
    owner: string,
    provider: Provider,
    from: { name: string; address: string },
    subject: string,
    ageDays = 1,
  ) {
    const r = await f.admin(
      "POST",
      `mailboxes/${encodeURIComponent(owner)}/messages?provider=${emulatorProvider(provider)}`,
      { from, subject, text: "Hello", internalDate: Date.now() - ageDays * DAY },
    );
    expect(r.status).toBe(201);
  }

  /** A message the owner sent (in their Sent folder), to the given people. */
  async function sent(owner: string, provider: Provider, to: Array<{ name: string; address: string }>) {
    const date = Date.now() - DAY;
    const raw = composeMessage({
      from: { name: "Me", address: owner },
      to,
      subject: "Sent one",
      text: "Hi",
      date,
    });
    const r = await f.admin(
      "POST",
      `mailboxes/${encodeURIComponent(owner)}/messages?provider=${emulatorProvider(provider)}`,
      { raw, labelIds: ["SENT"], internalDate: date },
    );
    expect(r.status).toBe(201);
  }

  /** Links another mailbox to the signed-in person (the sign-in flow started with their session). */
  async function link(provider: Provider, email: string, token: string) {
    const start = await fetch(`${f.url}/api/auth/${provider}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const cookie = start.headers
      .getSetCookie()
      .find((c) => c.startsWith("mailwise_oauth_flow="))
      ?.split(";")[0];
    const { authUrl } = (await start.json()) as { authUrl: string };
    const back = await consentAtEmulator(authUrl, email);
    const callback = await fetch(`${f.url}/api/auth/${provider}/callback?${back.searchParams.toString()}`, {
      headers: { accept: "application/json", ...(cookie ? { cookie } : {}) },
    });
    expect(callback.status).toBe(200);
    // Linking answers a new session for the person.
    const { sessionToken } = (await callback.json()) as { sessionToken: string };
    const [account] = await f.database.database.db
      .select({ id: mailAccounts.id })
      .from(mailAccounts)
      .where(and(eq(mailAccounts.provider, provider), eq(mailAccounts.email, email)));
    if (!account) throw new Error("no linked account");
    return { accountId: account.id, token: sessionToken };
  }

  async function synced(accountId: string, count: number) {
    await waitUntil(async () => (await f.rows(accountId)).length >= count, 20_000, "sync");
  }

  /** The rebuild follows the sync's event: wait until `address` is a contact, then for the rest. */
  async function contactsHave(token: string, address: string) {
    await waitUntil(
      async () => (await suggest(token, address)).some((c) => c.address === address),
      20_000,
      `${address} among the contacts`,
    );
    await f.services.contacts.idle();
  }

  let alex: { token: string; userId: string };

  it("ranks a frequent correspondent first, across both accounts, without the person's own addresses", async () => {
    // Gmail: Priya wrote four times, Pat Jones twice (long ago), Alex wrote once to Paula.
    for (let i = 0; i < 4; i++)
      await deliver(PEOPLE.alex, "gmail", { name: "Priya Shah", address: PEOPLE.priya }, `P${i}`);
    await deliver(PEOPLE.alex, "gmail", { name: "Pat Jones", address: "pat.jones@example.org" }, "Old", 200);
    await deliver(
      PEOPLE.alex,
      "gmail",
      { name: "Pat Jones", address: "Pat.Jones@example.org" },
      "Older",
      300,
    );
    await sent(PEOPLE.alex, "gmail", [{ name: "Paula Smith", address: "paula@example.net" }]);
    // Outlook (linked to the same person): Casey, and a note from the person's own Gmail address.
    await deliver(PEOPLE.jordan, "outlook", { name: "Casey Kim", address: PEOPLE.casey }, "From Outlook");
    await deliver(PEOPLE.jordan, "outlook", { name: "Alex Morgan", address: PEOPLE.alex }, "To myself");

    const signedIn = await f.signIn("gmail", PEOPLE.alex);
    alex = { token: signedIn.token, userId: signedIn.userId };
    // Sends go out at once: these tests are about what arrives, not Undo send (outbox-api.test.ts).
    await api("PATCH", "/api/settings/mail", alex.token, { sendDelaySeconds: 0 });
    await synced(signedIn.accountId, 7);
    const outlook = await link("outlook", PEOPLE.jordan, alex.token);
    alex.token = outlook.token;
    await synced(outlook.accountId, 2);
    await contactsHave(alex.token, "paula@example.net");
    await contactsHave(alex.token, PEOPLE.casey);

    const ps = await suggest(alex.token, "p");
    // Priya (4 received) > Paula (1 sent, weighs 3) > Pat (2 received, months ago).
    expect(ps.map((c) => c.address)).toEqual([PEOPLE.priya, "paula@example.net", "pat.jones@example.org"]);
    expect(ps[0]?.name).toBe("Priya Shah");
    // A word of the name, any case; the Outlook account's correspondent.
    expect((await suggest(alex.token, "JON")).map((c) => c.address)).toEqual(["pat.jones@example.org"]);
    expect((await suggest(alex.token, "kim")).map((c) => c.address)).toEqual([PEOPLE.casey]);
    // The person's own addresses are never suggested, though mail came from one.
    expect(await suggest(alex.token, "alex")).toEqual([]);
    expect(await suggest(alex.token, "jordan")).toEqual([]);
    // LIKE's wildcards are plain characters.
    expect(await suggest(alex.token, "%")).toEqual([]);
    expect(await suggest(alex.token, "_")).toEqual([]);
    expect((await suggest(alex.token, "", 2)).length).toBe(2);
  }, 60_000);

  it("counts a send through Mailwise at once", async () => {
    const answer = await api("POST", "/api/emails/send", alex.token, {
      to: '"Newman, Nora" <Nora.Newman@example.com>',
      cc: "",
      bcc: "",
      subject: "Hello",
      body: "Hi Nora",
    });
    expect(answer.status).toBe(200);
    await f.services.contacts.idle();
    expect(await suggest(alex.token, "nora")).toEqual([
      { address: "nora.newman@example.com", name: "Newman, Nora" },
    ]);
  });

  it("never shows another person's contacts", async () => {
    await deliver(PEOPLE.sam, "gmail", { name: "Zed Zulu", address: "zed@example.org" }, "Hi Sam");
    const sam = await f.signIn("gmail", PEOPLE.sam);
    await synced(sam.accountId, 1);
    await contactsHave(sam.token, "zed@example.org");
    expect(await suggest(alex.token, "zed")).toEqual([]);
    expect(await suggest(sam.token, "priya")).toEqual([]);
  }, 30_000);

  it("refuses bad input with 400, not 500", async () => {
    expect((await api("GET", "/api/contacts?limit=1000", alex.token)).status).toBe(400);
    expect((await api("GET", `/api/contacts?q=${"a".repeat(300)}`, alex.token)).status).toBe(400);
    expect((await api("GET", "/api/contacts?q=a", "not-a-session")).status).toBe(401);
  });

  it("puts contacts in the export and deletes them with the account", async () => {
    const exported = await api("POST", "/api/privacy/export", alex.token);
    expect(exported.status).toBe(200);
    const section = exported.json.contacts as Array<{
      address: string;
      sentCount: number;
      receivedCount: number;
    }>;
    expect(section.find((c) => c.address === PEOPLE.priya)).toMatchObject({ receivedCount: 4, sentCount: 0 });
    expect(section.find((c) => c.address === "paula@example.net")).toMatchObject({ sentCount: 1 });

    const deleted = await api("POST", "/api/privacy/delete", alex.token, { immediate: true });
    expect(deleted.status).toBe(200);
    const left = await f.database.database.db.select().from(contacts).where(eq(contacts.userId, alex.userId));
    expect(left).toEqual([]);
  }, 30_000);
});
