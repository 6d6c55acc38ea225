import { z } from "zod";

/**
 * Recipient suggestions (issue 36): GET /api/contacts?q=<prefix>&limit=8 answers the person's
 * correspondents whose address, name or a word of the name starts with q, most used first.
 */
export const CONTACTS_LIMIT_MAX = 20;
export const CONTACTS_QUERY_MAX = 200;

export const contactsQuerySchema = z.object({
  q: z.string().trim().max(CONTACTS_QUERY_MAX).default(""),
  limit: z.coerce.number().int().min(1).max(CONTACTS_LIMIT_MAX).default(8),
});
export type ContactsQuery = z.infer<typeof contactsQuerySchema>;

export const contactSchema = z.object({
  /** Lower-cased. */
  address: z.string(),
  /** The display name last seen for it, "" when none. */
  name: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

export const contactListSchema = z.object({ contacts: z.array(contactSchema) });
export type ContactList = z.infer<typeof contactListSchema>;
