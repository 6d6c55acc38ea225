import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { buildAlternative, buildBodyEntity, buildRfc822 } from "./build.ts";

const from = { name: "Ana Lima", address: "ana@example.com" };
const to = [{ name: "Ola Berg", address: "ola.berg@example.org" }];

/** The top-level and part content types, in order, as a receiving client reads the structure. */
function contentTypes(raw: string): string[] {
  return [...raw.matchAll(/^Content-Type: ([^;\r\n]+)/gm)].map((m) => m[1] ?? "");
}

describe("multipart/alternative for rich text (issue 36)", () => {
  it("sends the text and the HTML as alternatives, text first, both readable back", async () => {
    const html =
      '<p>Hi <strong>Ola</strong>, see <a href="https://example.com/">this</a> — ok?</p><ul><li>one</li></ul>';
    const raw = buildRfc822({
      from,
      to,
      cc: [],
      bcc: [],
      subject: "Plan",
      body: "Hi Ola, see this — ok?\n- one",
      html,
    });
    expect(contentTypes(raw)).toEqual(["multipart/alternative", "text/plain", "text/html"]);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.html).toBe(html);
    expect(parsed.text?.replace(/\r\n/g, "\n")).toBe("Hi Ola, see this — ok?\n- one");
    expect(raw.split("\r\n").every((line) => line.length <= 998)).toBe(true);
    expect(raw).not.toMatch(/[^\r]\n/);
  });

  it("stays a single text/plain part without HTML, exactly as before", async () => {
    const raw = buildRfc822({ from, to, cc: [], bcc: [], subject: "s", body: "hello" });
    expect(contentTypes(raw)).toEqual(["text/plain"]);
    expect(raw).toContain(
      'Content-Type: text/plain; charset="UTF-8"\r\nContent-Transfer-Encoding: 7bit\r\n\r\nhello\r\n',
    );
    expect((await PostalMime.parse(raw)).html).toBeUndefined();
  });

  it("keeps the calendar alternative for iMIP replies", () => {
    const entity = buildBodyEntity({
      body: "Yes",
      calendar: { method: "REPLY", ics: "BEGIN:VCALENDAR\nEND:VCALENDAR" },
    });
    expect(entity.headers).toEqual([
      expect.stringMatching(/^Content-Type: multipart\/alternative; boundary="=_mw_[0-9a-f]{24}"$/),
    ]);
    expect(entity.content).toContain('Content-Type: text/calendar; charset="UTF-8"; method=REPLY');
  });

  it("nests as one entity, so a multipart/mixed wrapper keeps the alternative whole", async () => {
    const alternative = buildBodyEntity({ body: "plain words", html: "<p><em>rich</em> words</p>" });
    const mixed = buildAlternative([alternative]); // any multipart wrapper; the structure is what counts
    const raw = `From: a@example.com\r\nTo: b@example.com\r\nSubject: s\r\nMIME-Version: 1.0\r\n${mixed.headers.join("\r\n")}\r\n\r\n${mixed.content}\r\n`;
    const parsed = await PostalMime.parse(raw);
    expect(parsed.html?.trim()).toBe("<p><em>rich</em> words</p>");
    expect(parsed.text?.trim()).toBe("plain words");
  });
});
