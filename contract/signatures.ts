import { z } from "zod";

/** Longest signature HTML accepted (a logo link and a few lines fit many times over). */
export const SIGNATURE_HTML_MAX = 10_000;

/**
 * GET/PUT /api/accounts/:id/signature (issue 36, decision 0064): each mail account's signature,
 * added to new mail, replies and forwards above the quoted text, and to AI drafts.
 */
export const accountSignatureSchema = z.object({
  accountId: z.string(),
  /** Sanitized by the server: only basic formatting and http(s)/mailto links survive. */
  html: z.string(),
  /** The same signature as plain text, for the text part and plain-text editors. */
  text: z.string(),
});
export type AccountSignature = z.infer<typeof accountSignatureSchema>;

export const putSignatureRequestSchema = z.object({ html: z.string().max(SIGNATURE_HTML_MAX) });
export type PutSignatureRequest = z.infer<typeof putSignatureRequestSchema>;
