import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/**
 * Secrets of the push channels. The Gmail push URL carries a token (Pub/Sub cannot sign its
 * pushes for us); Graph notifications carry the clientState we chose. Both derive from one
 * server secret, so every web and worker process agrees without storing anything, and the
 * per-account clientState stays the same across renewals (no window where a renewed
 * subscription's notifications would be refused).
 */
export interface PushSecrets {
  /** The ?token= value of POST /api/webhooks/gmail. */
  gmailToken: string;
  /** `<accountId>.<mac>`: the receiver can check it by computation, before any database read. */
  graphClientState(accountId: string): string;
  /** The account a clientState was minted for, or null when it is not one of ours. */
  graphAccountOf(clientState: string): string | null;
}

const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createPushSecrets(input: { configured: string | undefined; secretKey: Buffer }): PushSecrets {
  const derive = (purpose: string) =>
    createHmac("sha256", input.secretKey).update(purpose).digest("base64url");
  const graphMac = (accountId: string) => derive(`mailwise/push/graph-client-state/v2/${accountId}`);
  return {
    gmailToken: input.configured ?? derive("mailwise/push/gmail-token/v1"),
    graphClientState: (accountId) => `${accountId}.${graphMac(accountId)}`,
    graphAccountOf: (clientState) => {
      const dot = clientState.indexOf(".");
      const accountId = clientState.slice(0, dot);
      if (dot < 0 || !ACCOUNT_ID.test(accountId)) return null;
      return safeEqual(clientState.slice(dot + 1), graphMac(accountId)) ? accountId : null;
    },
  };
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Constant-time comparison of two strings of any length (both are hashed first). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}
