import { expect, type Locator } from "@playwright/test";

/**
 * The compose dialog's Message field is a rich-text editor (issue 36): one block per line, so a
 * plain text put into it (a reply's quote, an AI suggestion) reads back line by line.
 */
export function messageLines(dialog: Locator): Locator {
  return dialog.getByLabel("Message").locator(":scope > *");
}

/** The link prompt refuses other schemes with this text (web/src/features/compose/editor/link-prompt.tsx). */
export const LINK_REFUSED_TEXT = "Enter a web address (http or https) or an email address.";

/** Asserts the Message shows `text`, line by line. */
export async function expectMessageText(dialog: Locator, text: string): Promise<void> {
  await expect(messageLines(dialog)).toHaveText(text.replace(/\r\n?/g, "\n").split("\n"));
}
