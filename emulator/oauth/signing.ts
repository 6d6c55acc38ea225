import { createHash, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { type JWTPayload, SignJWT } from "jose";

/** A public key as published in a JWKS document. */
export interface PublicJwk {
  kty: "RSA";
  use: "sig";
  alg: "RS256";
  kid: string;
  n: string;
  e: string;
}

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicJwk: PublicJwk;
}

/**
 * A fresh RS256 key per emulator start (and per provider), so nothing can depend on a key that
 * lives in the repository. Synchronous so buildEmulator can return the Fastify instance directly.
 */
export function createSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = publicKey.export({ format: "jwk" });
  if (typeof jwk.n !== "string" || typeof jwk.e !== "string") throw new Error("RSA key export failed");
  const kid = randomBytes(20).toString("hex");
  return { kid, privateKey, publicJwk: { kty: "RSA", use: "sig", alg: "RS256", kid, n: jwk.n, e: jwk.e } };
}

/** Signs id_token claims. iat/exp come from the caller because they follow the emulator clock. */
export function signIdToken(key: SigningKey, claims: JWTPayload): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" })
    .sign(key.privateKey);
}

/** OIDC at_hash: the left half of SHA-256 of the access token, base64url. */
export function accessTokenHash(accessToken: string): string {
  return createHash("sha256").update(accessToken).digest().subarray(0, 16).toString("base64url");
}
