import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import type { SyncService } from "../sync/index.ts";
import { safeEqual, sha256Hex } from "../sync/push-secrets.ts";
import { GRAPH_WEBHOOK_PATH } from "../sync/watch-renewer.ts";
import { graphSubscriptionOwner } from "./account-lookup.ts";

const notificationsSchema = z.object({
  value: z
    .array(
      z.object({
        subscriptionId: z.string().max(200),
        clientState: z.string().max(500).nullable().optional(),
      }),
    )
    .max(1000),
});

/**
 * Microsoft Graph change notifications. Creating a subscription first sends
 * `?validationToken=...`, which must be echoed as text/plain within 10 s. Notifications are
 * checked against the clientState we gave (stored as a hash); ones that do not match are
 * ignored, not refused, so nobody learns which subscriptions exist. Work happens in a job:
 * Graph wants an answer within 3 s.
 */
export function registerGraphWebhook(
  app: FastifyInstance,
  deps: { db: Db; sync: Pick<SyncService, "requestSync">; log: { warn(obj: object, msg: string): void } },
): void {
  app.post<{ Querystring: { validationToken?: string } }>(GRAPH_WEBHOOK_PATH, async (request, reply) => {
    const validationToken = request.query.validationToken;
    if (typeof validationToken === "string") {
      // Echo only plain printable text of sane length; nosniff (helmet) keeps it from being HTML.
      const safe = validationToken.slice(0, 1024).replace(/[^\x20-\x7e]/g, "");
      return reply.code(200).type("text/plain; charset=utf-8").send(safe);
    }
    const parsed = notificationsSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(202).send();
    const accounts = new Set<string>();
    for (const n of parsed.data.value) {
      const given = n.clientState ?? "";
      const owner = await graphSubscriptionOwner(deps.db, n.subscriptionId, sha256Hex(given));
      if (!owner?.clientStateHash || !safeEqual(sha256Hex(given), owner.clientStateHash)) {
        deps.log.warn(
          { subscriptionId: n.subscriptionId },
          "graph notification with unknown subscription or wrong clientState ignored",
        );
        continue;
      }
      accounts.add(owner.accountId);
    }
    for (const accountId of accounts) await deps.sync.requestSync(accountId, "push");
    return reply.code(202).send();
  });
}
