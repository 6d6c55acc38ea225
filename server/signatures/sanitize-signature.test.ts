import { describe, expect, it } from "vitest";
import { sanitizeSignatureHtml } from "./sanitize-signature.ts";

describe("signature sanitizer", () => {
  it("keeps basic formatting and safe links", () => {
    expect(
      sanitizeSignatureHtml('<p><b>Ana</b> <i>Ops</i><br><a href="https://x.io/a?b=1&amp;c=2">site</a></p>'),
    ).toBe(
      '<p><b>Ana</b> <i>Ops</i><br><a href="https://x.io/a?b=1&amp;c=2" rel="noopener noreferrer">site</a></p>',
    );
  });

  it("drops scripts, styles, event handlers, images and unsafe links", () => {
    const out = sanitizeSignatureHtml(
      '<div onclick="x()">Hi<script>alert(1)</script><style>p{}</style><img src=x onerror=alert(1)><a href="javascript:alert(1)">j</a></div>',
    );
    expect(out).toBe("<div>Hi<a>j</a></div>");
  });

  it("closes what was left open and escapes text", () => {
    expect(sanitizeSignatureHtml("<b>1 &lt; 2 <i>x")).toBe("<b>1 &lt; 2 <i>x</i></b>");
  });

  it("handles deep nesting and a long input in bounded time", () => {
    const deep = `${"<span>".repeat(5000)}x`;
    const started = performance.now();
    const out = sanitizeSignatureHtml(deep + "<".repeat(10_000));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(out.match(/<span>/g)?.length).toBe(32);
  });
});
