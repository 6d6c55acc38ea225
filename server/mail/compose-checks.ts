import { COMPOSE_RECIPIENTS_MAX } from "../../contract/compose.ts";
import { DomainError } from "../http/errors.ts";
import type { OutgoingMessage } from "../providers/mail-provider.ts";

/**
 * Header injection (issue 36): a subject that still holds a line break (or another control
 * character) after trimming would start a second header if anything downstream forgot to fold
 * it, so it is refused up front, naming the field. Display names in To/Cc/Bcc are refused the
 * same way by parseRecipients; the MIME builder strips them again as a second guard.
 */
export function checkSubject(subject: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/.test(subject)) {
    throw new DomainError("validation_failed", "The subject must be one line: remove the line break.", {
      subject: "Line breaks are not allowed in the subject",
    });
  }
}

/** More than COMPOSE_RECIPIENTS_MAX addresses in To, Cc and Bcc together is refused before sending. */
export function checkRecipientCount(message: Pick<OutgoingMessage, "to" | "cc" | "bcc">): void {
  const count = message.to.length + message.cc.length + message.bcc.length;
  if (count > COMPOSE_RECIPIENTS_MAX) {
    throw new DomainError(
      "validation_failed",
      `Too many recipients: ${count}. One email can go to at most ${COMPOSE_RECIPIENTS_MAX} addresses (To, Cc and Bcc together).`,
      { to: `At most ${COMPOSE_RECIPIENTS_MAX} recipients` },
    );
  }
}
