import { randomBytes, randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { publicBaseUrl } from "../http/request.ts";
import { createUserAgentKeys, decryptPushBody, PushDecryptError, type UserAgentKeys } from "./decrypt.ts";
import { VapidError, verifyVapid } from "./vapid.ts";

/**
 * A Web Push service (RFC 8030) under {EMU}/fcm.googleapis.com/fcm/send/<id>, playing the browser's
 * side too: an admin call issues a subscription (endpoint + p256dh/auth, private key kept here), and
 * each push to it is checked (VAPID, TTL, size), decrypted (RFC 8291) and recorded for tests.
 */

const PREFIX = "/fcm.googleapis.com/fcm/send";
/** RFC 8030 section 7.2: push services must accept at least 4096 bytes of payload. */
const MAX_BODY = 4096;
const MAX_RECORDED = 1000;

interface Subscription {
  id: string;
  keys: UserAgentKeys;
  /** The applicationServerKey the browser subscribed with, when given: pushes must be signed by it. */
  applicationServerKey: string | undefined;
  /** Revoked (the person blocked notifications, or the browser dropped it): pushes get 410. */
  gone: boolean;
}

export interface ReceivedPush {
  subscriptionId: string;
  receivedAt: string;
  ttl: number;
  urgency: string;
  topic: string | null;
  /** The decrypted payload text, or null when it could not be decrypted (see `error`). */
  payload: string | null;
  error: string | null;
  bodyBytes: number;
}

const createSchema = z.object({
  applicationServerKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/)
    .optional(),
});

function pushError(reply: FastifyReply, status: number, message: string): FastifyReply {
  // FCM's web push answers errors as text; the status is what clients act on.
  return reply.code(status).type("text/plain; charset=utf-8").send(message);
}

export function registerWebPushRoutes(app: FastifyInstance, admin: boolean, publicUrl?: string): void {
  const subscriptions = new Map<string, Subscription>();
  const received: ReceivedPush[] = [];

  void app.register(async (scope) => {
    // Encrypted bodies are bytes; this parser lives only in this scope.
    scope.addContentTypeParser(
      "application/octet-stream",
      { parseAs: "buffer", bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, body),
    );

    scope.post(`${PREFIX}/:id`, async (request: FastifyRequest, reply) => {
      const { id } = request.params as { id: string };
      const sub = subscriptions.get(id);
      if (!sub) return pushError(reply, 404, "Subscription not found");
      if (sub.gone) return pushError(reply, 410, "Subscription expired or unsubscribed");
      const origin = publicBaseUrl(request, publicUrl).replace(/^(https?:\/\/[^/]+).*$/, "$1");
      let claims: ReturnType<typeof verifyVapid>;
      try {
        claims = verifyVapid(request.headers.authorization, origin, Math.floor(Date.now() / 1000));
      } catch (err) {
        if (err instanceof VapidError) return pushError(reply, 401, `Unauthorized: ${err.message}`);
        throw err;
      }
      if (sub.applicationServerKey && claims.publicKey !== sub.applicationServerKey)
        return pushError(reply, 403, "The key in the authorization header does not match the subscription");
      const ttlHeader = request.headers.ttl;
      const ttl = typeof ttlHeader === "string" && /^\d+$/.test(ttlHeader) ? Number(ttlHeader) : Number.NaN;
      if (!Number.isFinite(ttl)) return pushError(reply, 400, "Missing or invalid TTL header");
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (body.length > MAX_BODY) return pushError(reply, 413, "Payload too large");
      let payload: string | null = null;
      let error: string | null = null;
      if (body.length > 0) {
        if (request.headers["content-encoding"] !== "aes128gcm") error = "content-encoding is not aes128gcm";
        else
          try {
            payload = decryptPushBody(body, sub.keys).toString("utf8");
          } catch (err) {
            if (!(err instanceof PushDecryptError)) throw err;
            // A real push service forwards what it cannot read; the browser would drop it.
            error = err.message;
          }
      }
      received.push({
        subscriptionId: id,
        receivedAt: new Date().toISOString(),
        ttl,
        urgency: typeof request.headers.urgency === "string" ? request.headers.urgency : "normal",
        topic: typeof request.headers.topic === "string" ? request.headers.topic : null,
        payload,
        error,
        bodyBytes: body.length,
      });
      if (received.length > MAX_RECORDED) received.splice(0, received.length - MAX_RECORDED);
      const messageId = randomUUID();
      return reply
        .code(201)
        .header(
          "location",
          `${publicBaseUrl(request, publicUrl)}/fcm.googleapis.com/fcm/message/${messageId}`,
        )
        .send();
    });
  });

  if (!admin) return;

  // Plays the browser's PushManager.subscribe(): the keys' private half stays here.
  app.post("/_admin/push/subscriptions", async (request, reply) => {
    const parsed = createSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: "invalid_request" });
    const id = randomBytes(24).toString("base64url");
    const keys = createUserAgentKeys(randomBytes(16));
    subscriptions.set(id, { id, keys, applicationServerKey: parsed.data.applicationServerKey, gone: false });
    return reply.code(201).send({
      id,
      endpoint: `${publicBaseUrl(request, publicUrl)}${PREFIX}/${id}`,
      expirationTime: null,
      keys: { p256dh: keys.publicKey.toString("base64url"), auth: keys.authSecret.toString("base64url") },
    });
  });

  app.post("/_admin/push/subscriptions/:id/revoke", async (request, reply) => {
    const sub = subscriptions.get((request.params as { id: string }).id);
    if (!sub) return reply.code(404).send({ error: "subscription_not_found" });
    sub.gone = true;
    return reply.send({ id: sub.id, gone: true });
  });

  app.get("/_admin/push/received", async (request, reply) => {
    const { subscription } = request.query as { subscription?: string };
    return reply.send({
      pushes: subscription ? received.filter((p) => p.subscriptionId === subscription) : received,
    });
  });

  app.post("/_admin/push/reset", async (_request, reply) => {
    subscriptions.clear();
    received.length = 0;
    return reply.code(204).send();
  });
}
