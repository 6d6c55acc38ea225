import { and, asc, eq, ne } from "drizzle-orm";
import type { AccountSignature } from "../../contract/signatures.ts";
import type { Db } from "../db/client.ts";
import { mailAccounts } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import { textFromHtml } from "../providers/body-text.ts";
import { sanitizeSignatureHtml } from "./sanitize-signature.ts";

/**
 * Each mail account's signature (issue 36, decision 0064), the one place a signature is set:
 * compose adds it, AI drafts read it. Every query is scoped to the signed-in user, so another
 * person's account answers 404 exactly like one that does not exist.
 */
export function createSignatureService(db: Db) {
  async function row(userId: string, accountId: string) {
    const [found] = await db
      .select({ id: mailAccounts.id, html: mailAccounts.signatureHtml, text: mailAccounts.signatureText })
      .from(mailAccounts)
      .where(and(eq(mailAccounts.userId, userId), eq(mailAccounts.id, accountId)));
    if (!found) throw new DomainError("not_found", "No such account.");
    return found;
  }

  return {
    async get(userId: string, accountId: string): Promise<AccountSignature> {
      const found = await row(userId, accountId);
      return { accountId: found.id, html: found.html, text: found.text };
    },

    /** Stores the sanitized HTML and its text form, both derived here from what was sent. */
    async put(userId: string, accountId: string, html: string): Promise<AccountSignature> {
      const clean = sanitizeSignatureHtml(html);
      const text = clean.trim() === "" ? "" : textFromHtml(clean);
      const [updated] = await db
        .update(mailAccounts)
        .set({ signatureHtml: text === "" ? "" : clean, signatureText: text, updatedAt: new Date() })
        .where(and(eq(mailAccounts.userId, userId), eq(mailAccounts.id, accountId)))
        .returning({
          id: mailAccounts.id,
          html: mailAccounts.signatureHtml,
          text: mailAccounts.signatureText,
        });
      if (!updated) throw new DomainError("not_found", "No such account.");
      return { accountId: updated.id, html: updated.html, text: updated.text };
    },
  };
}

export type SignatureService = ReturnType<typeof createSignatureService>;

/**
 * The text signature AI drafts end with: the account's when the mail is known to belong to one,
 * else the first account (oldest connected) that has a signature; "" when none has.
 */
export async function signatureTextFor(db: Db, userId: string, accountId?: string): Promise<string> {
  if (accountId) {
    const [own] = await db
      .select({ text: mailAccounts.signatureText })
      .from(mailAccounts)
      .where(and(eq(mailAccounts.userId, userId), eq(mailAccounts.id, accountId)));
    if (own) return own.text;
  }
  const [first] = await db
    .select({ text: mailAccounts.signatureText })
    .from(mailAccounts)
    .where(and(eq(mailAccounts.userId, userId), ne(mailAccounts.signatureText, "")))
    .orderBy(asc(mailAccounts.connectedAt))
    .limit(1);
  return first?.text ?? "";
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * The AI agent's "Email signature" field writes here (decision 0064): the text becomes the
 * signature of every account of the person (HTML: escaped, line breaks as <br>), so there is one
 * stored signature per account and nothing else to keep in step.
 */
export async function setSignatureTextEverywhere(db: Db, userId: string, text: string): Promise<void> {
  const normalized = text.replace(/\r\n?/g, "\n").trim();
  const html =
    normalized === "" ? "" : sanitizeSignatureHtml(escapeHtml(normalized).split("\n").join("<br>"));
  await db
    .update(mailAccounts)
    .set({ signatureHtml: html, signatureText: normalized, updatedAt: new Date() })
    .where(eq(mailAccounts.userId, userId));
}
