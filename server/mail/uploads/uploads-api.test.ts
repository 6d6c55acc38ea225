import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Email, emailListResponseSchema, emailSchema } from "../../../contract/mail.ts";
import { uploads } from "../../db/schema.ts";
import { createClock } from "../../lib/clock.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import {
  arrived as arrivedMail,
  bytesOf,
  mailboxSubjects,
  uploaded as uploadedFile,
  upload as uploadFile,
} from "../../test/compose-api.ts";
import { callApi, emulatorProvider, type Provider, syncAtRest } from "../../test/slow-provider.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../../test/sync-fixture.ts";
import { createUploadStore } from "./upload-store.ts";

/**
 * Issue 36, attachments in compose through the API against a real server and the emulator:
 * uploads streamed to disk, sends whose files arrive byte for byte in the recipient's emulator
 * mailbox (Gmail's upload endpoint; Graph inline and by upload session), Forward's originals,
 * and the bad cases: 30 MB on Gmail, a cut-off upload, another person's upload, expiry.
 */
describe("compose attachments (pglite)", () => {
  let f: SyncFixture;
  let dataDir: string;
  let uploadsDir: string;
  const people: Record<string, { token: string; userId: string; accountId: string }> = {};

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "mw-uploads-test-"));
    uploadsDir = path.join(dataDir, "uploads");
    f = await startSyncFixture("pglite", { DATA_DIR: dataDir });
    people.alex = await f.signIn("gmail", PEOPLE.alex);
    people.casey = await f.signIn("outlook", PEOPLE.casey);
    people.jordan = await f.signIn("outlook", PEOPLE.jordan);
    // Sends go out at once: these tests are about what arrives, not Undo send (outbox-api.test.ts).
    for (const p of Object.values(people))
      await callApi(f, "PATCH", "/api/settings/mail", p.token, { sendDelaySeconds: 0 });
  }, 180_000);
  afterAll(async () => {
    await f?.close();
    await rm(dataDir, { recursive: true, force: true });
  }, 180_000);

  const who = (name: string) => {
    const person = people[name];
    if (!person) throw new Error(`no ${name}`);
    return person;
  };

  const upload = (token: string, fileName: string, bytes: Buffer, type?: string) =>
    uploadFile(f, token, fileName, bytes, type);
  const uploaded = (token: string, fileName: string, bytes: Buffer, type?: string) =>
    uploadedFile(f, token, fileName, bytes, type);
  const arrived = (recipient: string, provider: Provider, subject: string) =>
    arrivedMail(f, recipient, provider, subject);
  const subjects = (recipient: string, provider: Provider) => mailboxSubjects(f, recipient, provider);

  async function rowsOf(userId: string) {
    return f.database.database.db.select().from(uploads).where(eq(uploads.userId, userId));
  }
  const filesOf = async (userId: string) =>
    readdir(path.join(uploadsDir, userId)).catch(() => [] as string[]);

  it("Gmail: an upload sent through Gmail arrives with its exact bytes and name, and is then deleted", async () => {
    const { token, userId } = who("alex");
    const bytes = randomBytes(300_000);
    const name = "Résumé «final» 2026.pdf";
    const file = await uploaded(token, name, bytes, "application/pdf");
    expect(file).toMatchObject({ fileName: name, contentType: "application/pdf", size: bytes.length });
    expect(await filesOf(userId)).toHaveLength(1);
    // The name is never the file's name on disk.
    expect((await filesOf(userId))[0]).toMatch(/^[0-9a-f]{32}$/);
    const subject = "Gmail attachment test";
    const sent = await callApi(f, "POST", "/api/emails/send", token, {
      to: PEOPLE.priya,
      cc: "",
      bcc: "",
      subject,
      body: "See the file.",
      attachments: [{ kind: "upload", uploadId: file.id }],
    });
    expect(sent.status).toBe(200);
    const mail = await arrived(PEOPLE.priya, "gmail", subject);
    expect(mail.text?.trim()).toBe("See the file.");
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]?.filename).toBe(name);
    expect(mail.attachments[0]?.mimeType).toBe("application/pdf");
    expect(bytesOf(mail.attachments[0] as never).equals(bytes)).toBe(true);
    expect(await rowsOf(userId)).toHaveLength(0);
    expect(await filesOf(userId)).toHaveLength(0);
  });

  it("Outlook: a small file inline and a 5 MB file by upload session arrive with their exact bytes", async () => {
    const { token, userId } = who("casey");
    const small = randomBytes(120_000);
    const big = randomBytes(5 * 1024 * 1024 + 12_345);
    const a = await uploaded(token, "notes.txt", small, "text/plain");
    const b = await uploaded(token, "big video.bin", big);
    const subject = "Outlook attachments test";
    const sent = await callApi(f, "POST", "/api/emails/send", token, {
      to: PEOPLE.alex,
      cc: "",
      bcc: "",
      subject,
      body: "Two files.",
      attachments: [
        { kind: "upload", uploadId: a.id },
        { kind: "upload", uploadId: b.id },
      ],
    });
    expect(sent.status).toBe(200);
    const mail = await arrived(PEOPLE.alex, "gmail", subject);
    const named = (n: string) => mail.attachments.find((x) => x.filename === n);
    expect(mail.attachments).toHaveLength(2);
    expect(bytesOf(named("notes.txt") as never).equals(small)).toBe(true);
    expect(bytesOf(named("big video.bin") as never).equals(big)).toBe(true);
    // Nothing left in Drafts, and the uploads are gone.
    const drafts = (
      await f.admin("GET", `mailboxes/${encodeURIComponent(PEOPLE.casey)}?provider=microsoft&label=DRAFT`)
    ).json as { messages: unknown[] };
    expect(drafts.messages).toHaveLength(0);
    expect(await rowsOf(userId)).toHaveLength(0);
  });

  it("Gmail: 30 MB of attachments is refused naming the file and the limit; nothing is sent, nothing lost", async () => {
    const { token, userId } = who("alex");
    const file = await uploaded(token, "huge.iso", Buffer.alloc(30 * 1024 * 1024, 7));
    const subject = "Too big for Gmail";
    const sent = await callApi(f, "POST", "/api/emails/send", token, {
      to: PEOPLE.priya,
      cc: "",
      bcc: "",
      subject,
      body: "x",
      attachments: [{ kind: "upload", uploadId: file.id }],
    });
    expect(sent.status).toBe(413);
    expect(sent.json).toEqual({
      error: {
        code: "payload_too_large",
        message: '"huge.iso" (30 MB) is too large: Gmail allows 25 MB of attachments in all.',
      },
    });
    expect(await subjects(PEOPLE.priya, "gmail")).not.toContain(subject);
    expect(await subjects(PEOPLE.alex, "gmail")).not.toContain(subject);
    // The upload is still there for the person to remove or send elsewhere.
    expect((await callApi(f, "GET", `/api/uploads/${file.id}`, token)).status).toBe(200);
    expect((await callApi(f, "DELETE", `/api/uploads/${file.id}`, token)).status).toBe(204);
    expect(await rowsOf(userId)).toHaveLength(0);
    expect(await filesOf(userId)).toHaveLength(0);
  });

  it("a file that would take the person over their 200 MB of waiting uploads is refused, naming it", async () => {
    const { token, userId } = who("alex");
    // 190 MB already waiting (rows only: the quota is counted from the rows).
    const [filler] = await f.database.database.db
      .insert(uploads)
      .values({
        userId,
        fileName: "filler.bin",
        contentType: "application/octet-stream",
        size: 190 * 1024 * 1024,
        path: `${userId}/filler`,
        expiresAt: new Date(Date.now() + 60_000),
      })
      .returning();
    const over = await upload(token, "one too many.bin", randomBytes(11 * 1024 * 1024));
    expect(over.status).toBe(413);
    expect(over.json).toEqual({
      error: {
        code: "payload_too_large",
        message:
          '"one too many.bin" does not fit: attachments waiting to be sent can take at most 200 MB in all. Send or remove some first.',
      },
    });
    // Nothing of the refused file stays on disk.
    expect(await filesOf(userId)).toHaveLength(0);
    // A file that fits still goes in.
    const fits = await uploaded(token, "fits.bin", randomBytes(1024 * 1024));
    await callApi(f, "DELETE", `/api/uploads/${fits.id}`, token);
    await f.database.database.db.delete(uploads).where(eq(uploads.id, filler?.id ?? ""));
  });

  it("an upload cut off halfway leaves no file and no row", async () => {
    const { token, userId } = who("alex");
    const boundary = "----cutoff";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const total = head.length + 4_000_000 + 50;
    const url = new URL(`${f.url}/api/uploads`);
    await new Promise<void>((resolve) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": `multipart/form-data; boundary=${boundary}`,
            "content-length": String(total),
          },
        },
        (response) => {
          response.resume();
          response.on("end", resolve);
        },
      );
      request.on("error", () => resolve());
      request.write(head);
      request.write(randomBytes(2_000_000), () => {
        // Half the file, then the connection is cut.
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 300);
      });
    });
    // The server notices the close and cleans up.
    await waitUntil(async () => (await filesOf(userId)).length === 0 || undefined, 5_000, "file removed");
    expect(await rowsOf(userId)).toHaveLength(0);
    // And the person can upload again.
    const again = await uploaded(token, "after.bin", randomBytes(10));
    await callApi(f, "DELETE", `/api/uploads/${again.id}`, token);
  });

  it("another person's upload is a 404 everywhere, and never sent", async () => {
    const alex = who("alex");
    const jordan = who("jordan");
    const file = await uploaded(alex.token, "private.pdf", randomBytes(1000));
    expect((await callApi(f, "GET", `/api/uploads/${file.id}`, jordan.token)).status).toBe(404);
    expect((await callApi(f, "DELETE", `/api/uploads/${file.id}`, jordan.token)).status).toBe(404);
    const sent = await callApi(f, "POST", "/api/emails/send", jordan.token, {
      to: PEOPLE.casey,
      cc: "",
      bcc: "",
      subject: "Stolen file",
      body: "x",
      attachments: [{ kind: "upload", uploadId: file.id }],
    });
    expect(sent.status).toBe(404);
    expect(await subjects(PEOPLE.casey, "outlook")).not.toContain("Stolen file");
    expect((await callApi(f, "GET", `/api/uploads/${file.id}`, alex.token)).status).toBe(200);
    await callApi(f, "DELETE", `/api/uploads/${file.id}`, alex.token);
  });

  it("the sweep deletes an upload 24 hours old, row and file", async () => {
    const { token, userId } = who("alex");
    const old = await uploaded(token, "old.bin", randomBytes(100));
    const fresh = await uploaded(token, "fresh.bin", randomBytes(100));
    await f.database.database.db
      .update(uploads)
      .set({
        expiresAt: sql`now() - interval '1 minute'`,
        createdAt: sql`now() - interval '24 hours 1 minute'`,
      })
      .where(eq(uploads.id, old.id));
    const store = createUploadStore({ db: f.database.database.db, clock: createClock(), dir: uploadsDir });
    expect(await store.sweep()).toEqual({ expired: 1, orphans: 0 });
    expect((await callApi(f, "GET", `/api/uploads/${old.id}`, token)).status).toBe(404);
    expect((await rowsOf(userId)).map((r) => r.id)).toEqual([fresh.id]);
    expect(await filesOf(userId)).toHaveLength(1);
    await callApi(f, "DELETE", `/api/uploads/${fresh.id}`, token);
  });

  /**
   * The emulator's demo attachment mails delivered to `name` and synced; the one with `subject`
   * as the app reads it, and a file's bytes as the provider holds them.
   */
  async function demoMail(name: string, provider: Provider, subject: string) {
    const { token, accountId } = who(name);
    const person = name === "alex" ? PEOPLE.alex : PEOPLE.casey;
    const box = `mailboxes/${encodeURIComponent(person)}`;
    const q = `?provider=${emulatorProvider(provider)}`;
    expect((await f.admin("POST", `${box}/demo-attachments${q}`)).status).toBe(201);
    await f.admin("POST", `${box}/expire-sync${q}`).catch(() => undefined);
    await callApi(f, "POST", "/api/emails/auto-sync", token);
    const email = await waitUntil(
      async () => {
        const list = emailListResponseSchema.parse(
          (await callApi(f, "GET", "/api/emails?limit=50", token)).json,
        );
        return list.emails.find((e) => e.subject === subject);
      },
      20_000,
      `the demo mail "${subject}"`,
    );
    await syncAtRest(f, accountId);
    const full: Email = emailSchema.parse((await callApi(f, "GET", `/api/emails/${email.id}`, token)).json);
    const held = await arrived(person, provider, subject);
    const bytes = (filename: string) =>
      bytesOf(held.attachments.find((a) => a.filename === filename) as never);
    return { email: full, bytes };
  }

  /** Forwards `email` with these of its files; what arrived at the recipient. */
  async function forward(
    name: string,
    email: Email,
    files: string[],
    body: string,
    to: { address: string; provider: Provider } = { address: PEOPLE.jordan, provider: "outlook" },
  ) {
    const subject = `Fwd: ${email.subject}`;
    const sent = await callApi(f, "POST", "/api/emails/send", who(name).token, {
      to: to.address,
      subject,
      body,
      inReplyToId: email.id,
      mode: "forward",
      attachments: email.attachments
        .filter((a) => files.includes(a.filename))
        .map((a) => ({ kind: "original", emailId: email.id, attachmentId: a.id })),
    });
    expect(sent.status).toBe(200);
    return arrived(to.address, to.provider, subject);
  }

  it("Forward: the original's attachment is fetched from the provider and arrives with its bytes", async () => {
    const { email, bytes } = await demoMail("alex", "gmail", "Q3 budget for review");
    const held = bytes("Q3 Budget.pdf");
    const pdf = email.attachments.find((a) => a.filename === "Q3 Budget.pdf");
    if (!pdf) throw new Error("no Q3 Budget.pdf");
    const mail = await forward("alex", email, ["Q3 Budget.pdf"], "Forwarding.");
    const forwarded = mail.attachments.find((a) => a.filename === "Q3 Budget.pdf");
    expect(forwarded && bytesOf(forwarded as never).equals(held)).toBe(true);
    // Scratch copies are gone too.
    expect(await filesOf(who("alex").userId)).toHaveLength(0);
    // Another person cannot forward it.
    const stolen = await callApi(f, "POST", "/api/emails/send", who("jordan").token, {
      to: PEOPLE.casey,
      cc: "",
      bcc: "",
      subject: "Stolen original",
      body: "x",
      attachments: [{ kind: "original", emailId: email.id, attachmentId: pdf.id }],
    });
    expect(stolen.status).toBe(404);
  }, 60_000);

  it("Outlook Forward: Graph's createForward copies every file; only the ones the person kept arrive", async () => {
    const { email, bytes } = await demoMail("casey", "outlook", "Photos from the offsite");
    expect(email.attachments.map((a) => a.filename).sort()).toEqual(["team-photo.png", "venue.jpg"]);
    // The person removed team-photo.png from the forward.
    const mail = await forward("casey", email, ["venue.jpg"], "Only the venue.", {
      address: PEOPLE.priya,
      provider: "gmail",
    });
    expect(mail.attachments.map((a) => a.filename)).toEqual(["venue.jpg"]);
    expect(bytesOf(mail.attachments[0] as never).equals(bytes("venue.jpg"))).toBe(true);
  }, 60_000);
});
