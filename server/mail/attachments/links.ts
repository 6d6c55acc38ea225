import { createHmac, timingSafeEqual } from "node:crypto";
import { ATTACHMENT_LINK_TTL_SECONDS } from "../../../contract/attachments.ts";
import { DomainError } from "../../http/errors.ts";
import type { Clock } from "../../lib/clock.ts";

/** What a signed attachment link grants: one attachment of one email of one person, until `expires`. */
export interface LinkClaims {
  userId: string;
  emailId: string;
  /** Our attachment id; `<id>~<n>` for the n-th file inside an attached message. */
  attachmentId: string;
  /** download: Content-Disposition attachment; inline: shown in a frame (images and PDFs only). */
  mode: "download" | "inline";
  /** Unix seconds. */
  expires: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ATTACHMENT_ID = /^[A-Za-z0-9_-]{1,64}(~\d{1,3}){0,4}$/;
const MAX_TOKEN = 512;

/** The path of a link; the token is the whole capability (the bearer token cannot ride along). */
export const ATTACHMENT_ROUTE_PREFIX = "/api/attachments/";

/**
 * Short-lived capability links for attachments (decision 0060): `<payload>.<mac>`, both
 * base64url, the MAC an HMAC-SHA256 under a key derived from the server's secret. A plain
 * `<a href>`, an `<img>` in the sandboxed mail frame and a preview frame can then fetch bytes
 * without the session; the route still checks the email belongs to the person.
 */
export function createAttachmentLinks(key: Buffer, clock: Pick<Clock, "now">) {
  const mac = (payload: string) => createHmac("sha256", key).update(payload).digest();
  const invalid = () =>
    new DomainError("invalid_link", "This attachment link is invalid or has expired. Open the email again.");
  return {
    /** A signed path valid for ATTACHMENT_LINK_TTL_SECONDS. */
    url(claims: Omit<LinkClaims, "expires">): string {
      const expires = Math.floor(clock.now().getTime() / 1000) + ATTACHMENT_LINK_TTL_SECONDS;
      const payload = Buffer.from(
        [
          claims.userId,
          claims.emailId,
          claims.attachmentId,
          claims.mode === "inline" ? "i" : "d",
          expires,
        ].join(" "),
      ).toString("base64url");
      return `${ATTACHMENT_ROUTE_PREFIX}${payload}.${mac(payload).toString("base64url")}`;
    },

    /** The claims of a token this server signed and that has not expired; invalid_link otherwise. */
    verify(token: string): LinkClaims {
      if (token.length > MAX_TOKEN) throw invalid();
      const [payload, signature, extra] = token.split(".");
      if (!payload || !signature || extra !== undefined) throw invalid();
      const given = Buffer.from(signature, "base64url");
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      const [userId = "", emailId = "", attachmentId = "", mode, expiresText = ""] = Buffer.from(
        payload,
        "base64url",
      )
        .toString("utf8")
        .split(" ");
      const expires = Number(expiresText);
      if (!UUID.test(userId) || !UUID.test(emailId) || !ATTACHMENT_ID.test(attachmentId)) throw invalid();
      if (!Number.isSafeInteger(expires) || expires * 1000 <= clock.now().getTime()) throw invalid();
      return { userId, emailId, attachmentId, mode: mode === "i" ? "inline" : "download", expires };
    },
  };
}

export type AttachmentLinks = ReturnType<typeof createAttachmentLinks>;
