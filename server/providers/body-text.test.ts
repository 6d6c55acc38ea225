import { describe, expect, it } from "vitest";
import { capBody, MAX_BODY_CHARS, MAX_HTML_TEXT_CHARS, textFromHtml } from "./body-text.ts";

describe("textFromHtml", () => {
  it("keeps words, paragraphs, lists and readable links; drops scripts, styles and images", () => {
    const text = textFromHtml(
      [
        "<html><head><title>Newsletter</title><style>p { color: red }</style></head><body>",
        "<script>track()</script>",
        "<h1>Weekly news</h1>",
        "<p>Hello &amp; welcome,<br>read <a href='https://news.example/a?x=1&amp;y=2'>the story</a>",
        " or go to <a href='https://news.example/'>https://news.example/</a>.</p>",
        "<img src='https://t.example/pixel.gif' alt=''>",
        "<ul><li>one</li><li>two</li></ul>",
        "<a href='#top'>Back to top</a>",
        "</body></html>",
      ].join(""),
    );
    expect(text).toBe(
      [
        "Weekly news",
        "",
        "Hello & welcome,",
        "read the story [https://news.example/a?x=1&y=2] or go to https://news.example/.",
        "",
        " * one",
        " * two",
        "",
        "Back to top",
      ].join("\n"),
    );
    expect(text).not.toMatch(/track|color|pixel|Newsletter/);
  });

  it("does not wrap long lines", () => {
    const sentence = "word ".repeat(100).trim();
    expect(textFromHtml(`<p>${sentence}</p>`)).toBe(sentence);
  });

  it("converts at most MAX_HTML_TEXT_CHARS of text, entities and hidden text aside", () => {
    const html = `<p>${"a".repeat(MAX_BODY_CHARS + 10)}</p>`;
    expect(textFromHtml(html)).toHaveLength(MAX_HTML_TEXT_CHARS);
    expect(textFromHtml(`<div>${"b".repeat(MAX_BODY_CHARS * 2)}</div>`)).toHaveLength(MAX_HTML_TEXT_CHARS);
    expect(textFromHtml(`<p>${"&amp;".repeat(MAX_HTML_TEXT_CHARS)}</p>`).length).toBeLessThanOrEqual(
      MAX_HTML_TEXT_CHARS,
    );
    // A newsletter's big style sheet is no text: the words after it are kept.
    const styled = `<style>${"p { color: red } ".repeat(20_000)}</style><p>Hello Alex</p>`;
    expect(textFromHtml(styled)).toBe("Hello Alex");
  });

  // Issue 34: html-to-text lays out every element; 100,000 table cells or links took 0.3 to
  // 0.8 s on the sync's thread.
  it("converts what comes before MAX_ELEMENTS elements, quickly", () => {
    const hostile = [
      `<p>Before</p><table><tr>${"<td>1</td>".repeat(100_000)}</tr></table>`,
      `<p>Before</p>${'<a href="https://example.com/x?y=1">click</a> '.repeat(20_000)}`,
      `<p>Before</p><table>${"<tr><td>a</td><td>b</td></tr>".repeat(30_000)}</table>`,
    ];
    textFromHtml("<p>warm</p>");
    for (const html of hostile) {
      const started = performance.now();
      const text = textFromHtml(html);
      // A guard against blow-ups (a quadratic walk takes many seconds here), not a benchmark: the
      // 200 ms a mail target is measured in bench/security; parallel suites on two cores add noise.
      expect(performance.now() - started, html.slice(0, 60)).toBeLessThan(1_000);
      expect(text.startsWith("Before")).toBe(true);
    }
    const newsletter = `${"<table><tr><td><a href='https://shop.example/p'>Item</a></td></tr></table>".repeat(2_000)}<p>Unsubscribe</p>`;
    expect(textFromHtml(newsletter)).toContain("Unsubscribe");
  });

  // html-to-text walks the tree recursively and its parser's stack is quadratic in the depth:
  // absurd nesting must neither throw (stack overflow) nor stall a sync worker for seconds.
  it("converts what comes before absurd nesting, quickly and without throwing", () => {
    const html = `<p>Before the trap</p>${"<div>".repeat(200_000)}deep text${"</div>".repeat(200_000)}`;
    const started = performance.now();
    const text = textFromHtml(html);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(text).toContain("Before the trap");
    expect(text).not.toContain("deep text");
    const unclosed = textFromHtml(`<p>Intro</p>${"<b>".repeat(300_000)}`);
    expect(unclosed).toBe("Intro");
  });

  it("keeps moderately nested real-world markup whole", () => {
    const nested = `${"<table><tr><td>".repeat(40)}inner cell${"</td></tr></table>".repeat(40)}<p>after</p>`;
    const text = textFromHtml(nested);
    expect(text).toContain("inner cell");
    expect(text).toContain("after");
  });
});

describe("capBody", () => {
  it("leaves short bodies and null alone", () => {
    expect(capBody("short")).toBe("short");
    expect(capBody(null)).toBeNull();
  });

  it("cuts at MAX_BODY_CHARS without splitting a surrogate pair", () => {
    expect(capBody("x".repeat(MAX_BODY_CHARS + 5))).toHaveLength(MAX_BODY_CHARS);
    const emoji = `${"x".repeat(MAX_BODY_CHARS - 1)}😀tail`;
    const cut = capBody(emoji);
    expect(cut).toHaveLength(MAX_BODY_CHARS - 1);
    expect(cut.endsWith("x")).toBe(true);
  });
});
