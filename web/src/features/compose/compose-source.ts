import type { Email } from "../../../../contract/mail.ts";
import { FORWARDED_MESSAGE_SEPARATOR, forwardAttachments, forwardBlock, forwardSubject } from "./forward.ts";
import { type ComposeDraft, EMPTY_DRAFT, ORIGINAL_MESSAGE_SEPARATOR, replyDraft } from "./reply.ts";
import { replyAllFields } from "./reply-all.ts";

/** How compose answers the email it was opened from (the reader's Reply, Reply all, Forward). */
export type AnswerMode = "reply" | "replyAll" | "forward";

/** An original attachment carried by a forward, removable before sending. */
export type ForwardedFile = ReturnType<typeof forwardAttachments>[number];

export interface InitialCompose {
  draft: ComposeDraft;
  files: ForwardedFile[];
}

/** The compose form as Reply, Reply all or Forward open it (new mail when there is no source). */
export function initialCompose(
  source: Email | null,
  mode: AnswerMode,
  ownAddresses: readonly string[],
  htmlToText: (html: string) => string,
): InitialCompose {
  if (!source) return { draft: EMPTY_DRAFT, files: [] };
  if (mode === "forward") {
    return {
      draft: {
        ...EMPTY_DRAFT,
        subject: forwardSubject(source.subject),
        body: `\n\n${forwardBlock(source, htmlToText)}`,
      },
      files: forwardAttachments(source),
    };
  }
  const reply = replyDraft(source, htmlToText);
  if (mode === "reply") return { draft: reply, files: [] };
  return { draft: { ...reply, ...replyAllFields(source, ownAddresses) }, files: [] };
}

/** The signature as the text body carries it: the usual "-- " delimiter line, then the text. */
export function signatureBlock(signature: string): string {
  return `-- \n${signature.trim()}`;
}

/**
 * The body with `next` account's signature in place of `previous`'s (the From select changed, or
 * the signature arrived): replaced where it stands, else inserted above the quoted or forwarded
 * text, else at the end. An empty `next` removes the old one.
 */
export function withSignature(body: string, previous: string, next: string): string {
  const old = previous.trim() ? signatureBlock(previous) : "";
  const replacement = next.trim() ? signatureBlock(next) : "";
  if (old && body.includes(old)) {
    const at = body.indexOf(old);
    // Removing it takes the blank line that separated it from what followed.
    const tail = body.slice(at + old.length);
    return body.slice(0, at) + (replacement ? replacement + tail : tail.replace(/^\n\n/, ""));
  }
  if (!replacement) return body;
  const quoted = [ORIGINAL_MESSAGE_SEPARATOR, FORWARDED_MESSAGE_SEPARATOR]
    .map((separator) => body.indexOf(separator))
    .filter((index) => index >= 0);
  if (quoted.length > 0) {
    const at = Math.min(...quoted);
    return `${body.slice(0, at)}${replacement}\n\n${body.slice(at)}`;
  }
  return `${body.trimEnd()}\n\n${replacement}`;
}
