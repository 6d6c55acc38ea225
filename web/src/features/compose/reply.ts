import type { Email } from "../../../../contract/mail.ts";

/** What the compose form holds (spec section 3's compose draft). */
export interface ComposeDraft {
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  body: string;
  /** The Message's HTML when it has formatting (issue 36); absent for plain text. */
  html?: string;
}

export const EMPTY_DRAFT: ComposeDraft = { to: "", cc: "", bcc: "", subject: "", body: "" };

export const ORIGINAL_MESSAGE_SEPARATOR = "--- Original Message ---";

/** 'Re: ' plus the subject, never 'Re: Re: '. */
export function replySubject(subject: string): string {
  return /^\s*re:/i.test(subject) ? subject : `Re: ${subject}`;
}

export type ReplySource = Pick<Email, "fromAddress" | "subject" | "bodyText" | "bodyHtml" | "snippet">;

/**
 * Spec section 2: To is the original sender, the subject gets 'Re: ', and the body quotes the
 * original content (body text, else the HTML as text, else the snippet) under the separator.
 */
export function replyDraft(original: ReplySource, htmlToText: (html: string) => string): ComposeDraft {
  const content = original.bodyText?.trim()
    ? original.bodyText
    : original.bodyHtml?.trim()
      ? htmlToText(original.bodyHtml)
      : original.snippet;
  return {
    to: original.fromAddress,
    cc: "",
    bcc: "",
    subject: replySubject(original.subject),
    // A textarea holds \n line ends; CRLF from the wire would differ from what is shown.
    body: `\n\n${ORIGINAL_MESSAGE_SEPARATOR}\n${content.replace(/\r\n?/g, "\n")}`,
  };
}
