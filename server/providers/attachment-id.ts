import { createHash } from "node:crypto";

/**
 * Our id of one attachment of a message: url-safe, 16 characters, the same on every sync for
 * the same part (Gmail's partId; Graph's position, name and size, since Graph's attachment ids
 * change whenever the message moves). Never Gmail's attachmentId, which changes between fetches.
 */
export function attachmentIdFor(key: string): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 16);
}

/** `<cid@host>` -> `cid@host`; null when there is none. */
export function bareContentId(value: string | null | undefined): string | null {
  const bare = (value ?? "").trim().replace(/^<|>$/g, "").trim();
  return bare === "" ? null : bare.slice(0, 500);
}
