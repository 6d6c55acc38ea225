import { describe, expect, it } from "vitest";
import { linkFromInput } from "./links.ts";
import { docFromPlainText, hasFormatting, outgoingHtml, plainTextOf } from "./plain-text.ts";

const text = (value: string, marks: { type: string; attrs?: Record<string, unknown> }[] = []) => ({
  type: "text",
  text: value,
  ...(marks.length ? { marks } : {}),
});
const line = (...content: object[]) => ({ type: "paragraph", content });
const item = (...content: object[]) => ({ type: "listItem", content });

describe("the Message's plain text", () => {
  it("round-trips text through the editor's lines, blank lines included", () => {
    for (const value of [
      "",
      "one",
      "Hi Ola,\n\nsee you.\n",
      "\n\n--- Original Message ---\nCan we meet?\r\nAgenda.",
    ]) {
      expect(plainTextOf(docFromPlainText(value))).toBe(value.replace(/\r\n/g, "\n"));
    }
  });

  it("writes lists with markers, quotes with '> ' and links with their address", () => {
    const doc = {
      type: "doc",
      content: [
        line(text("Hi "), text("there", [{ type: "bold" }])),
        {
          type: "bulletList",
          content: [item(line(text("milk"))), item(line(text("eggs")), line(text("two")))],
        },
        { type: "orderedList", attrs: { start: 3 }, content: [item(line(text("third")))] },
        { type: "blockquote", content: [line(text("quoted")), { type: "paragraph" }] },
        line(text("see "), text("the plan", [{ type: "link", attrs: { href: "https://example.com/" } }])),
        line(text("ola@example.org", [{ type: "link", attrs: { href: "mailto:ola@example.org" } }])),
      ],
    };
    expect(plainTextOf(doc)).toBe(
      "Hi there\n- milk\n- eggs\n  two\n3. third\n> quoted\n>\nsee the plan <https://example.com/>\nola@example.org",
    );
    expect(hasFormatting(doc)).toBe(true);
  });

  it("has no formatting when it is only lines of text", () => {
    expect(hasFormatting(docFromPlainText("a\n\nb"))).toBe(false);
  });

  it("keeps blank lines in the HTML sent", () => {
    expect(outgoingHtml("<div>a</div><div></div><div><strong>b</strong></div>")).toBe(
      "<div>a</div><div><br></div><div><strong>b</strong></div>",
    );
  });
});

describe("link addresses", () => {
  it("accepts http(s) and mailto, completing a bare host or email address", () => {
    expect(linkFromInput("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(linkFromInput(" http://example.com ")).toBe("http://example.com/");
    expect(linkFromInput("mailto:ola@example.org")).toBe("mailto:ola@example.org");
    expect(linkFromInput("example.com/page")).toBe("https://example.com/page");
    expect(linkFromInput("ola@example.org")).toBe("mailto:ola@example.org");
  });

  it("refuses other schemes, relative paths and words", () => {
    for (const value of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,x",
      "ftp://x.org",
      "/path",
      "hello",
      "",
    ]) {
      expect(linkFromInput(value), value).toBeNull();
    }
  });
});

describe("the signature block's text", () => {
  it("keeps the '-- ' delimiter that HTML parsing trims, and counts as formatting", () => {
    const doc = {
      type: "doc",
      content: [
        line(text("Hi")),
        {
          type: "signature",
          content: [
            line(text("--")),
            line(text("Ana", [{ type: "bold" }]), { type: "hardBreak" }, text("Ops")),
          ],
        },
      ],
    };
    expect(plainTextOf(doc)).toBe("Hi\n-- \nAna\nOps");
    expect(hasFormatting({ type: "doc", content: [{ type: "signature", content: [line(text("x"))] }] })).toBe(
      true,
    );
  });
});
