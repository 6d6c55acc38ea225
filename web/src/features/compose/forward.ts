import type { ComposeAttachmentRef } from "../../../../contract/compose.ts";
import type { Email } from "../../../../contract/mail.ts";

/** Gmail's separator line, as Gmail writes it (nine dashes after, ten before). */
export const FORWARDED_MESSAGE_SEPARATOR = "---------- Forwarded message ---------";

/** `Fwd: ` plus the subject, never doubled: a subject already starting Fwd:/Fw: (any case) stays. */
export function forwardSubject(subject: string): string {
  return /^\s*fwd?:/i.test(subject) ? subject.trim() : `Fwd: ${subject.trim()}`;
}

export type ForwardSource = Pick<
  Email,
  "from" | "fromName" | "fromAddress" | "date" | "subject" | "to" | "cc" | "bodyText" | "bodyHtml" | "snippet"
>;

/** The date as the header block shows it, in the person's own locale and time zone. */
export function forwardDate(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(locale, { dateStyle: "full", timeStyle: "short" });
}

function sender(source: ForwardSource): string {
  return source.fromName && source.fromName !== source.fromAddress
    ? `${source.fromName} <${source.fromAddress}>`
    : source.fromAddress;
}

/**
 * The forwarded part of the body: the separator, From, Date, Subject and To lines (Cc when there
 * was one), a blank line, then the original text (body text, else the HTML as text, else the
 * snippet), with \n line ends as a textarea holds them.
 */
export function forwardBlock(
  source: ForwardSource,
  htmlToText: (html: string) => string,
  formatDate: (iso: string) => string = forwardDate,
): string {
  const content = source.bodyText?.trim()
    ? source.bodyText
    : source.bodyHtml?.trim()
      ? htmlToText(source.bodyHtml)
      : source.snippet;
  const lines = [
    FORWARDED_MESSAGE_SEPARATOR,
    `From: ${sender(source)}`,
    `Date: ${formatDate(source.date)}`,
    `Subject: ${source.subject}`,
    `To: ${source.to}`,
    ...(source.cc.trim() ? [`Cc: ${source.cc}`] : []),
    "",
    content.replace(/\r\n?/g, "\n"),
  ];
  return lines.join("\n");
}

/** The original's attachments as compose refs (the server fetches their bytes when sending). */
export function forwardAttachments(
  source: Pick<Email, "id" | "attachments">,
): { ref: ComposeAttachmentRef; fileName: string; size: number }[] {
  return source.attachments
    .filter((a) => !a.inline)
    .map((a) => ({
      ref: { kind: "original", emailId: source.id, attachmentId: a.id },
      fileName: a.filename,
      size: a.size,
    }));
}
