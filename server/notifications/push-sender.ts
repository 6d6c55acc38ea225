import webpush from "web-push";
import type { PushPayload } from "../../contract/notifications.ts";
import { BlockedUrlError, safeRequest } from "../net/safe-fetch.ts";
import type { VapidKeys } from "./vapid-keys.ts";

export type PushOutcome = "sent" | "gone" | "failed" | "blocked";

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** A day: a phone that is off for longer gets no stale "new mail" when it comes back. */
const TTL_SECONDS = 24 * 3600;

/**
 * Sends one encrypted push (RFC 8291 aes128gcm, VAPID RFC 8292) through the SSRF guard: the
 * endpoint came from a browser, so it could name any address. web-push only builds the request;
 * our guarded client sends it (no redirects, pinned resolution, time and size caps).
 */
export function createPushSender(deps: {
  vapid: VapidKeys;
  subject: string;
  allowHosts: readonly string[];
  timeoutMs?: number;
}) {
  return {
    async send(target: PushTarget, payload: PushPayload): Promise<{ outcome: PushOutcome; status?: number }> {
      let details: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          JSON.stringify(payload),
          {
            vapidDetails: {
              subject: deps.subject,
              publicKey: deps.vapid.publicKey,
              privateKey: deps.vapid.privateKey,
            },
            TTL: TTL_SECONDS,
            contentEncoding: "aes128gcm",
            urgency: "high",
            // One notification per mail: a repeat replaces the waiting one at the push service.
            topic: payload.emailId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32),
          },
        );
      } catch {
        // Keys the browser gave that do not form a valid P-256 point: the subscription is unusable.
        return { outcome: "gone" };
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
      try {
        const res = await safeRequest(
          details.endpoint,
          { method: "POST", headers, ...(details.body ? { body: details.body } : {}) },
          { allowHosts: deps.allowHosts, timeoutMs: deps.timeoutMs ?? 10_000, maxResponseBytes: 4096 },
        );
        if (res.status >= 200 && res.status < 300) return { outcome: "sent", status: res.status };
        // RFC 8030 section 7.3: the subscription expired or was revoked; never push to it again.
        if (res.status === 404 || res.status === 410) return { outcome: "gone", status: res.status };
        return { outcome: "failed", status: res.status };
      } catch (err) {
        if (err instanceof BlockedUrlError) return { outcome: "blocked" };
        return { outcome: "failed" };
      }
    },
  };
}

export type PushSender = ReturnType<typeof createPushSender>;
