import type { FastifyReply } from "fastify";

/** Google's JSON error envelope for its REST APIs. */
export interface GoogleApiErrorBody {
  error: {
    code: number;
    message: string;
    errors: { message: string; domain: string; reason: string; location?: string; locationType?: string }[];
    status: string;
  };
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

export function googleApiError(
  code: number,
  message: string,
  reason: string,
  domain = "global",
  extra: { location?: string; locationType?: string } = {},
): GoogleApiErrorBody {
  return {
    error: {
      code,
      message,
      errors: [{ message, domain, reason, ...extra }],
      status: STATUS_NAMES[code] ?? "UNKNOWN",
    },
  };
}

export const GOOGLE_ERROR_CONTENT_TYPE = "application/json; charset=UTF-8";

export function sendGoogleError(reply: FastifyReply, body: GoogleApiErrorBody): FastifyReply {
  return reply.code(body.error.code).header("content-type", GOOGLE_ERROR_CONTENT_TYPE).send(body);
}

/** What Google's REST APIs (Gmail, Calendar) answer alike for a bad token, scope or backend. */
export const GOOGLE_ERRORS = {
  unauthenticated: () =>
    googleApiError(
      401,
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
      "authError",
      "global",
      { location: "Authorization", locationType: "header" },
    ),
  insufficientScope: () =>
    googleApiError(403, "Request had insufficient authentication scopes.", "insufficientPermissions"),
  backendError: () => googleApiError(503, "The service is currently unavailable.", "backendError"),
};

/** The WWW-Authenticate header Google sends with its 401. */
export const GOOGLE_WWW_AUTHENTICATE = 'Bearer realm="https://accounts.google.com/", error="invalid_token"';

export const GMAIL_ERRORS = {
  ...GOOGLE_ERRORS,
  metadataScopeQ: () => googleApiError(403, "Metadata scope does not support 'q' parameter", "forbidden"),
  delegationDenied: (user: string) => googleApiError(403, `Delegation denied for ${user}`, "forbidden"),
  notFound: () => googleApiError(404, "Requested entity was not found.", "notFound"),
  labelExists: () => googleApiError(409, "Label name exists or conflicts", "alreadyExists"),
  invalidArgument: (message: string) => googleApiError(400, message, "invalidArgument"),
  badRequest: (message: string) => googleApiError(400, message, "badRequest"),
  rateLimited: () =>
    googleApiError(
      429,
      "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user' of service 'gmail.googleapis.com' for consumer 'project_number:000000000000'.",
      "rateLimitExceeded",
      "usageLimits",
    ),
};
