import { describe, expect, it } from "vitest";
import { classifyFailure } from "../../jobs/retry-policy.ts";
import { classifyGmailError, DAILY_LIMIT_RETRY_MS } from "../gmail/errors.ts";
import { classifyGraphError } from "../outlook/errors.ts";
import { parseRetryAfter } from "./retry-after.ts";

const google = (code: number, reason: string) =>
  JSON.stringify({
    error: { code, message: "m", errors: [{ domain: "usageLimits", reason, message: "m" }], status: "X" },
  });
const graph = (code: string) => JSON.stringify({ error: { code, message: "m", innerError: {} } });
const answer = (status: number, text: string, headers: Record<string, string> = {}) => ({
  status,
  text,
  headers: new Headers(headers),
});

describe("classifyGmailError", () => {
  it.each([
    [401, google(401, "authError"), "reauth"],
    [403, google(403, "insufficientPermissions"), "reauth"],
    [403, google(403, "userRateLimitExceeded"), "rate_limit"],
    [403, google(403, "rateLimitExceeded"), "rate_limit"],
    [429, google(429, "rateLimitExceeded"), "rate_limit"],
    [429, "not json", "rate_limit"],
    [500, google(500, "backendError"), "transient"],
    [503, "", "transient"],
    [404, google(404, "notFound"), "permanent"],
    [400, google(400, "invalidArgument"), "permanent"],
    [403, google(403, "forbidden"), "permanent"],
  ])("HTTP %i %s -> %s", (status, text, kind) => {
    const error = classifyGmailError(answer(status, text));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
  });

  it("gives dailyLimitExceeded a long delay the job layer reads", () => {
    const error = classifyGmailError(answer(403, google(403, "dailyLimitExceeded")));
    expect(error.kind).toBe("rate_limit");
    expect(error.reason).toBe("dailyLimitExceeded");
    expect(classifyFailure(error)).toEqual({ kind: "rate_limit", retryAfterMs: DAILY_LIMIT_RETRY_MS });
  });

  it("honours Retry-After on a 429", () => {
    expect(
      classifyGmailError(answer(429, google(429, "rateLimitExceeded"), { "retry-after": "7" })).retryAfterMs,
    ).toBe(7000);
  });

  it("keeps response text out of the message", () => {
    const error = classifyGmailError(
      answer(400, JSON.stringify({ error: { message: "secret subject line" } })),
    );
    expect(error.message).not.toContain("secret");
  });
});

describe("classifyGraphError", () => {
  it.each([
    [401, graph("InvalidAuthenticationToken"), {}, "reauth", undefined],
    [403, graph("ErrorAccessDenied"), {}, "reauth", undefined],
    [429, graph("ApplicationThrottled"), { "retry-after": "3" }, "rate_limit", 3000],
    [429, graph("TooManyRequests"), {}, "rate_limit", 2000],
    [503, graph("ServiceUnavailable"), { "retry-after": "10" }, "rate_limit", 10000],
    [503, graph("ServiceUnavailable"), {}, "transient", undefined],
    [504, "", {}, "transient", undefined],
    [410, graph("SyncStateNotFound"), {}, "permanent", undefined],
    [404, graph("ErrorItemNotFound"), {}, "permanent", undefined],
    [400, graph("BadRequest"), {}, "permanent", undefined],
  ])("HTTP %i %s %o -> %s after %s ms", (status, text, headers, kind, retryAfterMs) => {
    const error = classifyGraphError(answer(status, text, headers));
    expect(error.kind).toBe(kind);
    expect(error.retryAfterMs).toBe(retryAfterMs);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-11-21T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
