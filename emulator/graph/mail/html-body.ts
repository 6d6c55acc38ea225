import { htmlToText } from "../../mailbox/mime.ts";

/**
 * The bodies a Graph message with `body.contentType` html is delivered with. Exchange sends an
 * HTML body as multipart/alternative, writing the text/plain form itself, so the recipient's
 * mailbox holds both; a text body goes as text/plain alone.
 */
export function deliveredBodies(
  html: boolean,
  content: string,
): { html: string; text: string } | { text: string } {
  if (!html) return { text: content };
  const text = htmlToText(content)
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { html: content, text };
}
