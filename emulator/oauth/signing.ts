import { createHash, generateKeyPair, type KeyObject, randomBytes } from "node:crypto";
import { promisify } from "node:util";
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

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * A fresh RS256 key per emulator start (and per provider), so nothing can depend on a key that
 * lives in the repository. Generated off the main thread: RSA key generation takes hundreds of
 * milliseconds on a busy machine, and the emulator often shares a process with the app.
 */
export async function createSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateRsaKeyPair("rsa", { modulusLength: 2048 });
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
