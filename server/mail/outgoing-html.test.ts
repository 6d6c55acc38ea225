import { describe, expect, it } from "vitest";
import { OUTGOING_HTML_MAX_DEPTH, safeHref, sanitizeOutgoingHtml } from "./outgoing-html.ts";

describe("sanitizeOutgoingHtml: the allow-list for mail a person sends", () => {
  it("keeps the editor's formatting", () => {
    const html =
      '<p>Hi <strong>Ola</strong>, <em>see</em> <u>this</u>:</p><ul><li><p>one</p></li></ul><ol><li>two</li></ol><blockquote><p>quoted<br>line</p></blockquote><p><a href="https://example.com/a?b=1&amp;c=2">link</a></p>';
    expect(sanitizeOutgoingHtml(html)).toBe(
      '<p>Hi <strong>Ola</strong>, <em>see</em> <u>this</u>:</p><ul><li><p>one</p></li></ul><ol><li>two</li></ol><blockquote><p>quoted<br>line</p></blockquote><p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">link</a></p>',
    );
  });

  it("drops script and style with their content, and every other element's tag", () => {
    expect(
      sanitizeOutgoingHtml(
        '<p>a<script>alert(1)</script>b<style>p{}</style>c<img src=x onerror="alert(1)">d<iframe src="https://x">e</iframe></p>',
      ),
    ).toBe("<p>abcd</p>");
    expect(sanitizeOutgoingHtml("<svg><script>alert(1)</script><text>t</text></svg>x")).toBe("x");
    expect(sanitizeOutgoingHtml("<font color=red>kept text</font>")).toBe("kept text");
  });

  it("drops on* handlers, style and every attribute but a safe href", () => {
    expect(
      sanitizeOutgoingHtml(
        '<p onclick="x()" style="color:red" class="c" id="i"><b onmouseover="y()">b</b></p>',
      ),
    ).toBe("<p><b>b</b></p>");
  });

  it("drops javascript:, data: and relative links, however written", () => {
    for (const href of [
      "javascript:alert(1)",
      " JaVaScRiPt:alert(1)",
      "java\tscript:alert(1)",
      "&#106;avascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:x",
      "/relative",
      "//example.com",
    ]) {
      expect(sanitizeOutgoingHtml(`<a href="${href}">x</a>`), href).toBe("<a>x</a>");
    }
    expect(sanitizeOutgoingHtml('<a href="mailto:ola@example.org">mail</a>')).toContain(
      'href="mailto:ola@example.org"',
    );
    expect(safeHref("http://example.com")).toBe("http://example.com/");
  });

  it("escapes text and attribute values, so nothing the sender wrote is copied through unparsed", () => {
    expect(sanitizeOutgoingHtml("&lt;script&gt;alert(1)&lt;/script&gt; 1 < 2 & 3")).toBe(
      "&lt;script&gt;alert(1)&lt;/script&gt; 1 &lt; 2 &amp; 3",
    );
    expect(sanitizeOutgoingHtml('<a href="https://e.com/&quot;onmouseover=&quot;x">x</a>')).toBe(
      '<a href="https://e.com/%22onmouseover=%22x" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeOutgoingHtml("<!-- c --><!DOCTYPE html><?xml x?>t")).toBe("t");
  });

  it("closes what the sender left open and ignores stray end tags", () => {
    expect(sanitizeOutgoingHtml("<ul><li>a<li>b")).toBe("<ul><li>a</li><li>b</li></ul>");
    expect(sanitizeOutgoingHtml("a</div></strong>b")).toBe("ab");
  });

  it("refuses nesting deeper than the editor makes, quickly, before building anything", () => {
    expect(() => sanitizeOutgoingHtml("<div>".repeat(OUTGOING_HTML_MAX_DEPTH + 1))).toThrow(
      expect.objectContaining({ code: "validation_failed" }),
    );
    const started = performance.now();
    expect(() => sanitizeOutgoingHtml("<b>".repeat(400_000))).toThrow();
    expect(() => sanitizeOutgoingHtml(`<svg>${"<g>".repeat(400_000)}`)).toThrow();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("costs time linear in the input at the largest size the contract allows", () => {
    const html = `${"<span>".repeat(OUTGOING_HTML_MAX_DEPTH - 1)}${"</p>x".repeat(350_000)}`;
    const started = performance.now();
    sanitizeOutgoingHtml(html);
    // Linear: about a second on a busy 2-core machine; quadratic growth would take minutes.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
