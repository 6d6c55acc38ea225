import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../test/auth-fixture.ts";
import { OUTGOING_HTML_MAX_DEPTH } from "./outgoing-html.ts";

/**
 * Issue 36, rich text through POST /api/emails/send on a real server and database, sending
 * through the emulator's Gmail (raw MIME) and Graph (HTML body): the recipient's mailbox holds
 * multipart/alternative with the sanitized HTML and the text; without html the mail stays plain text.
 */
describe("rich-text send (pglite)", () => {
  let f: AuthFixture;
  beforeAll(async () => {
    f = await startAuthFixture("pglite", {}, { seedCorpus: false });
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });

  /** The raw RFC 822 text of the newest message with this subject in a Gmail identity's inbox. */
  async function received(email: string, subject: string): Promise<string | undefined> {
    const box = `${f.emulator.url}/_admin/mailboxes/${encodeURIComponent(email)}`;
    const list = (await (await fetch(`${box}?provider=google&label=INBOX&limit=50`)).json()) as {
      messages: { id: string; subject: string }[];
    };
    const id = list.messages.find((m) => m.subject === subject)?.id;
    if (id === undefined) return undefined;
    return ((await (await fetch(`${box}/messages/${id}?provider=google`)).json()) as { raw: string }).raw;
  }

  async function receivedEventually(email: string, subject: string): Promise<string> {
    for (let i = 0; i < 50; i++) {
      const raw = await received(email, subject);
      if (raw !== undefined) return raw;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`"${subject}" never reached ${email}`);
  }

  const HOSTILE_HTML =
    '<div>Hi <strong onclick="steal()">Priya</strong>, see <a href="https://example.com/plan">the plan</a> ' +
    '<a href="javascript:alert(1)">now</a></div><script>alert(1)</script><ul><li><div>milk</div></li></ul>' +
    '<blockquote><div><em>quoted</em> <u>line</u></div></blockquote><img src="https://tracker.example/p.gif">';
  const TEXT = "Hi Priya, see the plan <https://example.com/plan> now\n- milk\n> quoted line";

  for (const [provider, sender, recipient] of [
    ["gmail", PEOPLE.alex, PEOPLE.priya],
    ["outlook", PEOPLE.casey, PEOPLE.sam],
  ] as const) {
    it(`${provider}: html arrives sanitized as multipart/alternative beside the text`, async () => {
      const token = await f.signIn(provider, sender);
      // Sends go out at once: these tests are about what arrives, not Undo send (outbox-api.test.ts).
      await f.api("PATCH", "/api/settings/mail", { token, body: { sendDelaySeconds: 0 } });
      const subject = `Rich ${provider} ${Date.now()}`;
      const sent = await f.api("POST", "/api/emails/send", {
        token,
        body: { to: recipient, subject, body: TEXT, html: HOSTILE_HTML },
      });
      expect(sent.status, sent.text).toBe(200);

      const raw = await receivedEventually(recipient, subject);
      expect(raw).toMatch(/^Content-Type: multipart\/alternative/im);
      const parsed = await PostalMime.parse(raw);
      const html = parsed.html ?? "";
      expect(html).toContain("<strong>Priya</strong>");
      expect(html).toMatch(/<a href="https:\/\/example\.com\/plan"[^>]*>the plan<\/a>/);
      expect(html).toContain("<ul><li><div>milk</div></li></ul>");
      expect(html).toContain("<blockquote><div><em>quoted</em> <u>line</u></div></blockquote>");
      expect(html).not.toMatch(/script|onclick|javascript:|<img|tracker/i);
      const text = parsed.text ?? "";
      for (const words of ["Hi Priya", "the plan", "milk", "quoted line"]) expect(text).toContain(words);
      expect(text).not.toContain("<strong>");
      if (provider === "gmail") expect(text.replace(/\r\n/g, "\n").trim()).toBe(TEXT);
    });

    it(`${provider}: without html the mail stays one text/plain part`, async () => {
      const token = await f.signIn(provider, sender);
      // Sends go out at once: these tests are about what arrives, not Undo send (outbox-api.test.ts).
      await f.api("PATCH", "/api/settings/mail", { token, body: { sendDelaySeconds: 0 } });
      const subject = `Plain ${provider} ${Date.now()}`;
      const sent = await f.api("POST", "/api/emails/send", {
        token,
        body: { to: recipient, subject, body: "Just words.\nTwo lines." },
      });
      expect(sent.status, sent.text).toBe(200);
      const raw = await receivedEventually(recipient, subject);
      expect(raw).not.toMatch(/multipart\/alternative|text\/html/i);
      const parsed = await PostalMime.parse(raw);
      expect(parsed.html).toBeUndefined();
      expect(parsed.text?.replace(/\r\n/g, "\n").trim()).toBe("Just words.\nTwo lines.");
    });
  }

  it("refuses html nested deeper than the editor makes, with a 400 naming the field, and sends nothing", async () => {
    const token = await f.signIn("gmail", PEOPLE.alex);
    const subject = `Deep ${Date.now()}`;
    const refused = await f.api("POST", "/api/emails/send", {
      token,
      body: { to: PEOPLE.priya, subject, body: "deep", html: "<div>".repeat(OUTGOING_HTML_MAX_DEPTH + 1) },
    });
    expect(refused.status).toBe(400);
    expect(refused.json?.error).toMatchObject({
      code: "validation_failed",
      fields: { html: expect.any(String) },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await received(PEOPLE.priya, subject)).toBeUndefined();
  });
});
