import { z } from "zod";

/** Spec section 3: a provider is gmail or outlook. */
export const mailProviderSchema = z.enum(["gmail", "outlook"]);
export type MailProvider = z.infer<typeof mailProviderSchema>;

export const accountStatusSchema = z.enum(["active", "reauth_required"]);

/** A connected mail account as the API presents it: never any token. */
export const mailAccountSchema = z.object({
  id: z.string(),
  provider: mailProviderSchema,
  email: z.string(),
  displayName: z.string(),
  status: accountStatusSchema,
  connectedAt: z.string(),
});
export type MailAccount = z.infer<typeof mailAccountSchema>;

export const planSchema = z.enum(["trial", "personal", "professional", "enterprise"]);

/** `user` of GET /api/auth/session. */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  plan: planSchema,
  /** ISO time; 14 days after sign-up, no card needed. */
  trialEndsAt: z.string(),
  createdAt: z.string(),
  accounts: z.array(mailAccountSchema),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionResponseSchema = z.object({ user: sessionUserSchema });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** GET /api/auth/gmail and /api/auth/outlook. */
export const authUrlResponseSchema = z.object({ authUrl: z.string() });
export type AuthUrlResponse = z.infer<typeof authUrlResponseSchema>;

/** GET /api/auth/{provider}/callback?code&state (code exchange by the page). */
export const callbackResponseSchema = z.object({
  success: z.boolean(),
  sessionToken: z.string().optional(),
  message: z.string(),
});
export type CallbackResponse = z.infer<typeof callbackResponseSchema>;

/** GET /api/accounts. */
export const accountsResponseSchema = z.object({ accounts: z.array(mailAccountSchema) });
export type AccountsResponse = z.infer<typeof accountsResponseSchema>;

/** 401 messages; the client derives the logout reason from them (spec section 8). */
export const SESSION_MESSAGES = {
  missing: "No session token provided",
  expired: "Session expired",
  invalidated: "Session invalidated",
  invalid: "Invalid session token",
} as const;
