import { compile } from "html-to-text";

// Links as Exchange writes them in the text form: the words, then the address in angle brackets.
const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: "a", options: { linkBrackets: ["<", ">"] } },
    { selector: "img", format: "skip" },
  ],
});

/**
 * The bodies a Graph message with `body.contentType` html is delivered with. Exchange sends an
 * HTML body as multipart/alternative, writing the text/plain form itself, so the recipient's
 * mailbox holds both; a text body goes as text/plain alone.
 */
export function deliveredBodies(
  html: boolean,
  content: string,
): { html: string; text: string } | { text: string } {
  return html ? { html: content, text: toText(content) } : { text: content };
}
