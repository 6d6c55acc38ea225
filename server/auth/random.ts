import { createHash, randomBytes } from "node:crypto";

/** 256 random bits, base64url (43 characters): session tokens, state and flow ids. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * What we store instead of a bearer secret. A plain SHA-256 suffices (no salt or slow hash):
 * the inputs are 256-bit random values, not guessable passwords.
 */
export function hashSecret(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

/** Shape of a randomToken(); lets us reject garbage without a database round trip. */
export const RANDOM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
