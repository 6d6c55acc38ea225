import { z } from "zod";

/** Stable error ids. The web client maps these back to typed errors; never match on message text. */
export const errorCodes = [
  "bad_request",
  "validation_failed",
  /** A request body nested deeper than the server reads (400). */
  "json_too_deep",
  "unauthorized",
  "session_expired",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "uri_too_long",
  "request_timeout",
  "headers_too_large",
  "unsupported_media_type",
  "rate_limited",
  /** The per-user budget of AI model calls is spent for this minute or day (429, Retry-After). */
  "ai_budget_exceeded",
  "provider_reauth_required",
  "provider_unavailable",
  /** The provider did not answer in time (504). */
  "provider_timeout",
  /** An attachment deleted at the provider, or an id that is not this person's (404). */
  "attachment_not_found",
  /** A signed link (attachments) that is forged or expired (403). */
  "invalid_link",
  "service_unavailable",
  /** The database's disk is full: nothing can be saved until space is freed (503, Retry-After). */
  "storage_full",
  "internal",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** Every non-2xx answer of the API has this body. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    /** Field-level details for validation_failed. */
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
