import { and, eq, ilike, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type EmailRow, storedEmailColumns } from "../db/email-columns.ts";
import { emails, mailAccounts } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import { tagsToSpaces } from "./local/html-tags.ts";
import type { AnalyzerInput } from "./local/index.ts";
import { isFreeMailDomain } from "./local/security/advance-fee.ts";

export type { EmailRow } from "../db/email-columns.ts";

/** One of the user's emails, or 404: every AI route on an email goes through here. */
export async function loadEmail(db: Db, userId: string, id: string): Promise<EmailRow> {
  const [row] = await db
    .select(storedEmailColumns)
    .from(emails)
    .where(and(eq(emails.userId, userId), eq(emails.id, id)));
  if (!row) throw new DomainError("not_found", "No such email.");
  return row;
}

/** The user's own addresses (every connected account), lower-case. */
export async function userAddresses(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ email: mailAccounts.email })
    .from(mailAccounts)
    .where(eq(mailAccounts.userId, userId));
  return rows.map((r) => r.email.toLowerCase());
}

/** Plain text of an email for prompts and templates: body text, else HTML stripped, else snippet. */
export function plainText(row: Pick<EmailRow, "bodyText" | "bodyHtml" | "snippet">): string {
  if (row.bodyText?.trim()) return row.bodyText;
  if (row.bodyHtml?.trim()) {
    const breaks = row.bodyHtml
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
      .replace(/<br\s*\/?>|<\/p>/gi, "\n");
    return tagsToSpaces(breaks, false)
      .replace(/&nbsp;/g, " ")
      .replace(/&amp;/g, "&")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">");
  }
  return row.snippet;
}

/** The analyzer's view of a stored row. */
export function analyzerInputOf(row: EmailRow): AnalyzerInput {
  return {
    from: { name: row.fromName, address: row.fromAddress },
    to: row.toRecipients,
    cc: row.ccRecipients,
    replyTo: row.replyToRecipients,
    subject: row.subject,
    bodyText: row.bodyText,
    bodyHtml: row.bodyHtml,
    snippet: row.snippet,
    receivedAt: row.receivedAt,
    headers: {
      listUnsubscribe: row.listUnsubscribe,
      authenticationResults: row.authenticationResults,
      inReplyTo: row.inReplyTo,
    },
    attachments: row.attachments,
  };
}

/**
 * People at the user's own organisation: senders of stored mail from the user's own non-free-mail
 * domains, newest names first (bounded). The scan uses them to spot a stranger's address that
 * shows a colleague's name (gift-card and payroll fraud in an executive's name).
 */
export async function colleaguesOf(
  db: Db,
  userId: string,
  ownAddresses: readonly string[],
): Promise<Array<{ name: string; address: string }>> {
  const domains = [
    ...new Set(ownAddresses.map((a) => a.split("@")[1] ?? "").filter((d) => d && !isFreeMailDomain(d))),
  ];
  if (domains.length === 0) return [];
  const rows = await db
    .selectDistinct({ name: emails.fromName, address: emails.fromAddress })
    .from(emails)
    .where(
      and(
        eq(emails.userId, userId),
        or(...domains.map((d) => ilike(emails.fromAddress, `%@${d.replace(/[\\%_]/g, "\\$&")}`))),
      ),
    )
    .limit(500);
  return rows
    .filter((r) => r.name.trim().includes(" ") && !ownAddresses.includes(r.address.toLowerCase()))
    .map((r) => ({ name: r.name.trim(), address: r.address.toLowerCase() }));
}
