import PostalMime from "postal-mime";
import { beforeAll, describe, expect, it } from "vitest";
import { type Attachment, attachedMessageSchema } from "../../../contract/attachments.ts";
import { type Email, emailListResponseSchema, emailSchema } from "../../../contract/mail.ts";
import { emulatorSuite, PROVIDER_CASES } from "../../test/emulator-suite.ts";
import { callApi, emulatorProvider, type Provider, syncAtRest } from "../../test/slow-provider.ts";
import { type SyncFixture, waitUntil } from "../../test/sync-fixture.ts";

/**
 * Issue 35, attachments through the API on both providers against the emulator: the reader's
 * list with signed links, bytes equal to what the provider holds, safe headers, hostile names,
 * the attached message, and the bad cases (deleted at the provider, timeout, revoked grant,
 * another person's ids, forged links), each a JSON error and never a 500 or a hang.
 */
const OPEN_TIMEOUT_MS = 1_000;
const HOSTILE = `../..\\evil\u0007name\u202Efdp.exe${"x".repeat(300)}.pdf`;

describe("attachments (pglite)", () => {
  const fixture = emulatorSuite({ ATTACHMENT_OPEN_TIMEOUT_MS: String(OPEN_TIMEOUT_MS) });
  let f: SyncFixture;
  beforeAll(() => {
    f = fixture();
  });
  const cases = PROVIDER_CASES;

  /** Delivers the demo attachment mail and a hostile one, signs in and waits for the rows. */
  async function mailbox(provider: Provider, owner: string) {
    const box = `mailboxes/${encodeURIComponent(owner)}`;
    const q = `?provider=${emulatorProvider(provider)}`;
    expect((await f.admin("POST", `${box}/demo-attachments${q}`)).status).toBe(201);
    const hostile = await f.admin("POST", `${box}/attachment-mail${q}`, {
      subject: "Hostile names",
      files: [
        {
          filename: HOSTILE,
          mimeType: "application/pdf",
          base64: Buffer.from("%PDF-1.4 hostile").toString("base64"),
        },
        {
          filename: "page.html",
          mimeType: "text/html",
          base64: Buffer.from("<script>alert(1)</script>").toString("base64"),
        },
        { filename: "big.bin", mimeType: "application/octet-stream", size: 3_500_000, seed: 7 },
      ],
    });
    expect(hostile.status).toBe(201);
    const { token, accountId } = await f.signIn(provider, owner);
    await waitUntil(async () => (await f.rows(accountId)).length >= 6 || undefined, 20_000, "initial sync");
    await syncAtRest(f, accountId);
    const list = emailListResponseSchema.parse((await callApi(f, "GET", "/api/emails?limit=50", token)).json);
    const bySubject = (subject: string) => {
      const email = list.emails.find((e) => e.subject === subject);
      if (!email) throw new Error(`no email "${subject}"`);
      return email;
    };
    const open = async (subject: string): Promise<Email> =>
      emailSchema.parse((await callApi(f, "GET", `/api/emails/${bySubject(subject).id}`, token)).json);
    /** The bytes the emulator holds for a file of a message (parsed from its raw text). */
    const held = async (subject: string, filename: string): Promise<Buffer> => {
      const admin = (await f.admin("GET", `${box}${q}&limit=50`)).json as {
        messages: { id: string; subject: string }[];
      };
      const id = admin.messages.find((m) => m.subject === subject)?.id;
      const raw = ((await f.admin("GET", `${box}/messages/${id}${q}`)).json as { raw: string }).raw;
      const parsed = await PostalMime.parse(raw, { forceRfc822Attachments: true });
      const part = parsed.attachments.find((a) => a.filename === filename);
      if (!part) throw new Error(`no ${filename} in ${subject}`);
      return Buffer.from(part.content as ArrayBuffer);
    };
    return { token, accountId, list, bySubject, open, held, box, q };
  }

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${f.url}${path}`, { headers });
  const named = (email: Email, filename: string): Attachment => {
    const found = email.attachments.find((a) => a.filename === filename);
    if (!found) throw new Error(`no attachment ${filename}`);
    return found;
  };
  async function errorOf(response: Response) {
    const body = (await response.json()) as { error: { code: string; message: string } };
    return { status: response.status, code: body.error.code };
  }

  for (const { provider, owner, other, otherProvider } of cases) {
    describe(provider, () => {
      let m: Awaited<ReturnType<typeof mailbox>>;
      beforeAll(async () => {
        m = await mailbox(provider, owner);
      }, 120_000);

      it("lists attachments with signed links; the paperclip ignores inline-only mail", async () => {
        expect(m.bySubject("Q3 budget for review").hasAttachments).toBe(true);
        expect(m.bySubject("Q3 budget for review").attachments).toEqual([]);
        expect(m.bySubject("Northwind monthly: what's new").hasAttachments).toBe(false);
        const budget = await m.open("Q3 budget for review");
        expect(budget.attachments).toHaveLength(1);
        const pdf = named(budget, "Q3 Budget.pdf");
        expect(pdf).toMatchObject({
          mimeType: "application/pdf",
          preview: "pdf",
          inline: false,
          isMessage: false,
        });
        expect(pdf.url).toMatch(/^\/api\/attachments\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
        const news = await m.open("Northwind monthly: what's new");
        expect(named(news, "logo.png")).toMatchObject({
          inline: true,
          contentId: "logo@northwind.example",
          preview: "image",
        });
        const files = await m.open("Contract draft, project files and the kickoff");
        expect(files.attachments.map((a) => [a.filename, a.preview])).toEqual([
          ["Contract draft.docx", null],
          ["project-files.zip", null],
          ["kickoff.ics", null],
        ]);
      });

      it("downloads the bytes the provider holds, with safe headers and no session", async () => {
        const pdf = named(await m.open("Q3 budget for review"), "Q3 Budget.pdf");
        const response = await get(pdf.url);
        expect(response.status).toBe(200);
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(bytes.equals(await m.held("Q3 budget for review", "Q3 Budget.pdf"))).toBe(true);
        expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
        expect(response.headers.get("content-disposition")).toBe(
          `attachment; filename="Q3 Budget.pdf"; filename*=UTF-8''Q3%20Budget.pdf`,
        );
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(response.headers.get("content-security-policy")).toMatch(/^sandbox/);
        expect(response.headers.get("content-type")).toBe("application/pdf");

        const photos = await m.open("Photos from the offsite");
        for (const [name, type] of [
          ["team-photo.png", "image/png"],
          ["venue.jpg", "image/jpeg"],
        ] as const) {
          const image = named(photos, name);
          const inline = await get(image.inlineUrl ?? "");
          expect(inline.headers.get("content-type")).toBe(type);
          expect(inline.headers.get("content-disposition")).toMatch(/^inline; /);
          const body = Buffer.from(await inline.arrayBuffer());
          expect(body.equals(await m.held("Photos from the offsite", name))).toBe(true);
        }
      });

      it("saves hostile names safely and never serves HTML as HTML", async () => {
        const email = await m.open("Hostile names");
        const hostile = email.attachments.find((a) => a.filename.startsWith("../"));
        if (!hostile) throw new Error("no hostile attachment");
        // Sync drops the right-to-left override from what the reader shows.
        expect(hostile.filename).not.toContain("\u202E");
        const response = await get(hostile.url);
        expect(response.status).toBe(200);
        const disposition = response.headers.get("content-disposition") ?? "";
        const ascii = /filename="([^"]*)"/.exec(disposition)?.[1] ?? "";
        const utf8 = decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(disposition)?.[1] ?? "");
        for (const name of [ascii, utf8]) {
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must be gone
          expect(name).not.toMatch(/[/\\\u0000-\u001f\u202e]/);
          expect(name.startsWith(".")).toBe(false);
          expect([...name].length).toBeLessThanOrEqual(200);
          expect(name.endsWith(".pdf")).toBe(true);
        }
        const html = named(email, "page.html");
        expect(html.inlineUrl).toBeNull();
        const page = await get(html.url);
        expect(page.headers.get("content-type")).toBe("application/octet-stream");
        expect(page.headers.get("content-disposition")).toMatch(/^attachment; /);
      });

      it("streams a file over 3 MB (Graph leaves its bytes out of the list)", async () => {
        const big = named(await m.open("Hostile names"), "big.bin");
        const response = await get(big.url);
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(bytes.length).toBe(3_500_000);
        expect(bytes.equals(await m.held("Hostile names", "big.bin"))).toBe(true);
      });

      it("opens an attached message with its own attachment", async () => {
        const fwd = await m.open("Fwd: Signed agreement");
        const eml = named(fwd, "Signed agreement.eml");
        expect(eml).toMatchObject({ isMessage: true, mimeType: "message/rfc822", preview: null });
        const r = await callApi(f, "GET", `/api/emails/${fwd.id}/attachments/${eml.id}/message`, m.token);
        expect(r.status).toBe(200);
        const message = attachedMessageSchema.parse(r.json);
        expect(message.subject).toBe("Signed agreement");
        expect(message.from).toContain("contracts@morganlegal.example");
        expect(message.bodyText).toContain("signed agreement attached");
        expect(message.attachments.map((a) => a.filename)).toEqual(["Agreement.pdf"]);
        const nested = await get(message.attachments[0]?.url ?? "");
        expect(nested.status).toBe(200);
        expect(
          Buffer.from(await nested.arrayBuffer())
            .subarray(0, 5)
            .toString(),
        ).toBe("%PDF-");
        // A file that is no message has no message view.
        const pdf = named(await m.open("Q3 budget for review"), "Q3 Budget.pdf");
        const notMessage = await callApi(
          f,
          "GET",
          `/api/emails/${m.bySubject("Q3 budget for review").id}/attachments/${pdf.id}/message`,
          m.token,
        );
        expect(notMessage.status).toBe(404);
      });

      it("gives another person's ids a 404 and forged links a 403", async () => {
        const { token: otherToken } = await f.signIn(otherProvider, other);
        const fwd = await m.open("Fwd: Signed agreement");
        const eml = named(fwd, "Signed agreement.eml");
        const theirs = await callApi(
          f,
          "GET",
          `/api/emails/${fwd.id}/attachments/${eml.id}/message`,
          otherToken,
        );
        expect(theirs.status).toBe(404);
        expect((theirs.json.error as { code: string }).code).toBe("attachment_not_found");
        const unknown = await callApi(
          f,
          "GET",
          `/api/emails/${fwd.id}/attachments/AAAAAAAAAAAAAAAA/message`,
          m.token,
        );
        expect(unknown.status).toBe(404);
        const pdf = named(await m.open("Q3 budget for review"), "Q3 Budget.pdf");
        const [payload = "", mac = ""] = pdf.url.split("/").at(-1)?.split(".") ?? [];
        const flipped = `${mac.slice(0, -2)}${mac.at(-2) === "A" ? "B" : "A"}${mac.at(-1)}`;
        expect(await errorOf(await get(`/api/attachments/${payload}.${flipped}`))).toEqual({
          status: 403,
          code: "invalid_link",
        });
        expect(await errorOf(await get("/api/attachments/garbage"))).toEqual({
          status: 403,
          code: "invalid_link",
        });
        expect(await errorOf(await get(`/api/attachments/${"a".repeat(5000)}`))).toMatchObject({
          status: 403,
        });
      });

      it("answers a provider that is slow, a revoked grant and a deleted message with JSON errors", async () => {
        const pdf = named(await m.open("Q3 budget for review"), "Q3 Budget.pdf");
        const slow = await f.admin("PUT", "mail/faults", {
          latencyMs: 4_000,
          provider: emulatorProvider(provider),
        });
        expect(slow.status).toBe(200);
        const started = Date.now();
        expect(await errorOf(await get(pdf.url))).toEqual({ status: 504, code: "provider_timeout" });
        expect(Date.now() - started).toBeLessThan(OPEN_TIMEOUT_MS + 2_500);
        await f.admin("POST", "mail/faults/reset");

        const email = m.bySubject("Q3 budget for review");
        const admin = (await f.admin("GET", `${m.box}${m.q}&limit=50`)).json as {
          messages: { id: string; subject: string }[];
        };
        const id = admin.messages.find((x) => x.subject === "Q3 budget for review")?.id;
        expect((await f.admin("DELETE", `${m.box}/messages/${id}${m.q}`)).status).toBe(204);
        expect(await errorOf(await get(pdf.url))).toEqual({ status: 404, code: "attachment_not_found" });
        expect(email.id).toBeTruthy();

        const photo = named(await m.open("Photos from the offsite"), "team-photo.png");
        const revoked = await f.admin("POST", "tokens/revoke", {
          email: owner,
          provider: emulatorProvider(provider),
        });
        expect(revoked.status).toBe(200);
        expect(await errorOf(await get(photo.url))).toEqual({
          status: 409,
          code: "provider_reauth_required",
        });
      });
    });
  }
});
