import { describe, expect, it } from "vitest";
import { ORIGINAL_MESSAGE_SEPARATOR } from "./reply.ts";
import { linesHtml, signatureElement, withSignatureContent } from "./signature-html.ts";

const ana = { html: "<strong>Ana</strong><br>Ops", text: "Ana\nOps" };
const bo = { html: "<div><em>Bo</em></div>", text: "Bo" };
const reply = { body: `\n\n${ORIGINAL_MESSAGE_SEPARATOR}\nNumbers.` };

describe("the account signature as rich text in compose", () => {
  it("puts the signature's HTML above the quoted text, and its text in the body", () => {
    const signed = withSignatureContent(reply, null, ana);
    expect(signed.body).toBe(`\n\n-- \nAna\nOps\n\n${ORIGINAL_MESSAGE_SEPARATOR}\nNumbers.`);
    expect(signed.html).toBe(
      `<div></div><div></div>${signatureElement(ana)}<div></div>${linesHtml(`${ORIGINAL_MESSAGE_SEPARATOR}\nNumbers.`)}`,
    );
    expect(signed.html).toContain("<strong>Ana</strong>");
    expect(signed.html?.indexOf("<strong>")).toBeLessThan(
      signed.html?.indexOf(ORIGINAL_MESSAGE_SEPARATOR) ?? 0,
    );
  });

  it("swaps the signature where it stands when From changes, keeping the person's formatting", () => {
    const signed = withSignatureContent(reply, null, ana);
    // The person formatted a word above it meanwhile.
    const edited = { body: `Hi\n${signed.body}`, html: `<div><u>Hi</u></div>${signed.html}` };
    const swapped = withSignatureContent(edited, ana, bo);
    expect(swapped.body).toBe(`Hi\n\n\n-- \nBo\n\n${ORIGINAL_MESSAGE_SEPARATOR}\nNumbers.`);
    expect(swapped.html).toContain("<u>Hi</u>");
    expect(swapped.html).toContain(signatureElement(bo));
    expect(swapped.html).not.toContain("Ana");
    // An account without a signature removes it.
    const removed = withSignatureContent(swapped, bo, { html: "", text: "" });
    expect(removed.html).not.toContain("data-signature");
    expect(removed.html).toContain(ORIGINAL_MESSAGE_SEPARATOR);
    expect(removed.body).not.toContain("-- \n");
  });

  it("appends to new mail, escapes the typed text, and leaves plain mail plain without a signature", () => {
    const signed = withSignatureContent({ body: "a < b" }, null, ana);
    expect(signed.body).toBe("a < b\n\n-- \nAna\nOps");
    expect(signed.html).toBe(`<div>a &lt; b</div><div></div>${signatureElement(ana)}`);
    expect(withSignatureContent({ body: "x" }, null, { html: "", text: "" })).toEqual({
      body: "x",
      html: undefined,
    });
  });

  it("finds the block by its nesting, not the first closing tag", () => {
    const html = `<div>Hi</div>${signatureElement(bo)}<div>after</div>`;
    const swapped = withSignatureContent({ body: "Hi\n-- \nBo\nafter", html }, bo, ana);
    expect(swapped.html).toBe(`<div>Hi</div>${signatureElement(ana)}<div>after</div>`);
  });
});
