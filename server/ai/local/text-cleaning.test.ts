import { describe, expect, it } from "vitest";
import { cleanBody, decodeEntities, htmlToText } from "./text-cleaning.ts";

describe("text cleaning", () => {
  it("turns HTML into text without scripts, styles or tags", () => {
    const text = htmlToText(
      "<html><head><style>p{}</style></head><body><p>Hello&nbsp;Bob,</p><script>alert(1)</script><div>See you &amp; bye</div></body></html>",
    );
    expect(text).toBe("Hello Bob,\nSee you & bye");
  });
  it("decodes numeric entities and drops invalid code points", () => {
    expect(decodeEntities("&#65;&#x42;&#xD800;&#9999999;")).toBe("AB");
  });
  it("cuts quoted replies, signatures and list footers", () => {
    const body = [
      "Sounds good, see you Friday.",
      "",
      "-- ",
      "Alice Chen, Acme",
      "",
      "On Mon, 3 Mar 2025, Bob wrote:",
      "> Can we meet Friday?",
    ].join("\n");
    const cleaned = cleanBody(body);
    expect(cleaned.text).toBe("Sounds good, see you Friday.");
    expect(cleaned.hadSignature).toBe(true);
    const reply = cleanBody(
      "Yes, Friday works.\n\nOn Mon, 3 Mar 2025 at 10:00, Bob <bob@x.com> wrote:\n> Friday?",
    );
    expect(reply.text).toBe("Yes, Friday works.");
    expect(reply.hadQuotedReply).toBe(true);
    const list = cleanBody(
      "Release 2.0 is out.\nIt has many fixes.\nUpgrade soon.\n_______________________________________________\nUnsubscribe: https://lists.example.org/mailman/listinfo/dev",
    );
    expect(list.text).toBe("Release 2.0 is out.\nIt has many fixes.\nUpgrade soon.");
  });
});
