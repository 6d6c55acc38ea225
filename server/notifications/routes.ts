import type { FastifyInstance } from "fastify";
import {
  type NotificationSettings,
  notificationSettingsPatchSchema,
  pushSubscriptionInputSchema,
  pushSubscriptionRemoveSchema,
  type VapidKeyResponse,
} from "../../contract/notifications.ts";
import { sessionOf } from "../http/auth-guard.ts";
import { parseInput } from "../mail/validation.ts";
import type { NotificationServices } from "./index.ts";
import { presentNotificationSettings } from "./settings-store.ts";

/** /api/notifications/*: the signed-in person's own setting and browsers. */
export function registerNotificationRoutes(app: FastifyInstance, notifications: NotificationServices): void {
  const guarded = { preHandler: app.requireSession };

  app.get(
    "/api/notifications/vapid-key",
    guarded,
    async (): Promise<VapidKeyResponse> => ({ publicKey: notifications.vapidPublicKey }),
  );

  app.get(
    "/api/notifications/settings",
    guarded,
    async (request): Promise<NotificationSettings> =>
      presentNotificationSettings(await notifications.settings.read(sessionOf(request).userId)),
  );

  app.put("/api/notifications/settings", guarded, async (request): Promise<NotificationSettings> => {
    const patch = parseInput(notificationSettingsPatchSchema, request.body);
    return presentNotificationSettings(await notifications.settings.update(sessionOf(request).userId, patch));
  });

  app.post("/api/notifications/subscriptions", guarded, async (request, reply) => {
    const input = parseInput(pushSubscriptionInputSchema, request.body);
    await notifications.subscriptions.add(sessionOf(request).userId, input);
    return reply.code(201).send({ ok: true });
  });

  app.delete("/api/notifications/subscriptions", guarded, async (request, reply) => {
    const { endpoint } = parseInput(pushSubscriptionRemoveSchema, request.body);
    await notifications.subscriptions.remove(sessionOf(request).userId, endpoint);
    return reply.code(204).send();
  });
}
