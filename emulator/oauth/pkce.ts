import { createHash, timingSafeEqual } from "node:crypto";

export type CodeChallengeMethod = "S256" | "plain";

// RFC 7636 section 4.1: 43 to 128 unreserved characters.
const VERIFIER_SYNTAX = /^[A-Za-z0-9\-._~]{43,128}$/;
// An S256 challenge is a base64url SHA-256 digest without padding: exactly 43 characters.
const S256_CHALLENGE_SYNTAX = /^[A-Za-z0-9\-_]{43}$/;

export function isCodeChallengeMethod(value: string): value is CodeChallengeMethod {
  return value === "S256" || value === "plain";
}

export function isWellFormedChallenge(challenge: string, method: CodeChallengeMethod): boolean {
  return method === "S256" ? S256_CHALLENGE_SYNTAX.test(challenge) : VERIFIER_SYNTAX.test(challenge);
}

/** Checks a token request's code_verifier against the challenge sent to authorize. */
export function verifyCodeVerifier(
  verifier: string,
  challenge: string,
  method: CodeChallengeMethod,
): boolean {
  if (!VERIFIER_SYNTAX.test(verifier)) return false;
  const derived = method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
  const a = Buffer.from(derived);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The S256 challenge for a verifier; tests and the demo client use it. */
export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}
