import { createPublicKey, verify } from "node:crypto";

/** Why a push's VAPID authorization (RFC 8292) was refused. */
export class VapidError extends Error {
  override name = "VapidError";
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
  /** The application server's public key (the header's k=), base64url. */
  publicKey: string;
}

function b64url(text: string): Buffer {
  return Buffer.from(text, "base64url");
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>`: an ES256 JWT signed by k's private key,
 * whose audience is the push service's origin, expiring within 24 hours, with a contact subject.
 */
export function verifyVapid(header: string | undefined, origin: string, nowSeconds: number): VapidClaims {
  if (!header) throw new VapidError("missing Authorization header");
  const match = /^vapid\s+(.+)$/i.exec(header.trim());
  if (!match?.[1]) throw new VapidError("Authorization is not the vapid scheme");
  const params = new Map<string, string>();
  for (const part of match[1].split(",")) {
    const eq = part.indexOf("=");
    if (eq > 0) params.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const token = params.get("t");
  const k = params.get("k");
  if (!token || !k) throw new VapidError("vapid needs t= and k=");
  const point = b64url(k);
  if (point.length !== 65 || point[0] !== 4) throw new VapidError("k is not an uncompressed P-256 point");
  const [head, body, signature] = token.split(".");
  if (!head || !body || !signature) throw new VapidError("t is not a JWT");
  let header_: { alg?: unknown };
  let claims: { aud?: unknown; exp?: unknown; sub?: unknown };
  try {
    header_ = JSON.parse(b64url(head).toString("utf8")) as { alg?: unknown };
    claims = JSON.parse(b64url(body).toString("utf8")) as typeof claims;
  } catch {
    throw new VapidError("JWT parts are not JSON");
  }
  if (header_.alg !== "ES256") throw new VapidError("JWT must be ES256");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const valid = verify(
    "sha256",
    Buffer.from(`${head}.${body}`),
    { key, dsaEncoding: "ieee-p1363" },
    b64url(signature),
  );
  if (!valid) throw new VapidError("JWT signature does not verify with k");
  if (claims.aud !== origin) throw new VapidError(`aud must be ${origin}`);
  if (typeof claims.exp !== "number" || claims.exp <= nowSeconds || claims.exp > nowSeconds + 24 * 3600)
    throw new VapidError("exp must be in the next 24 hours");
  if (typeof claims.sub !== "string" || !/^(mailto:|https:)/.test(claims.sub))
    throw new VapidError("sub must be a mailto: or https: contact");
  return { aud: claims.aud, exp: claims.exp, sub: claims.sub, publicKey: k };
}
