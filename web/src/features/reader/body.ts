import type { Email } from "../../../../contract/mail.ts";

export type ReaderBody =
  | { kind: "html"; content: string }
  | { kind: "text"; content: string }
  | { kind: "snippet"; content: string }
  | { kind: "empty" };

/** Spec section 2: HTML, else plain text, else snippet, else 'No content available'. */
export function readerBody(email: Pick<Email, "bodyHtml" | "bodyText" | "snippet">): ReaderBody {
  if (email.bodyHtml?.trim()) return { kind: "html", content: email.bodyHtml };
  if (email.bodyText?.trim()) return { kind: "text", content: email.bodyText };
  if (email.snippet.trim()) return { kind: "snippet", content: email.snippet };
  return { kind: "empty" };
}
