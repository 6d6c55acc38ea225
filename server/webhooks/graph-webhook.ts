import { inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { syncStates } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import { perMinute, registerRateLimit } from "../http/rate-limit.ts";
import type { SyncService } from "../sync/index.ts";
import type { PushSecrets } from "../sync/push-secrets.ts";
import { GRAPH_WEBHOOK_PATH } from "../sync/watch-renewer.ts";

/** Graph sends a few notifications per request; more than this is not Graph. */
export const MAX_GRAPH_NOTIFICATIONS = 100;
/** Requests per minute from one address (all of Microsoft's pushes for many people share a few). */
export const GRAPH_WEBHOOK_REQUESTS_PER_MINUTE = 600;

const notificationsSchema = z.object({
  value: z.array(
    z.object({
      subscriptionId: z.string().max(200),
      clientState: z.string().max(500).nullable().optional(),
    }),
  ),
});

/**
 * Microsoft Graph change notifications. Creating a subscription first sends
 * `?validationToken=...`, which must be echoed as text/plain within 10 s. Each notification's
 * clientState names its account and carries a MAC of it, so forged ones are dropped by
 * computation, before any database read; the accounts left are checked in one query. Ones that
 * fail are ignored, not refused, so nobody learns which accounts exist; one summary line is
 * logged per request. Work happens in a job: Graph wants an answer within 3 s.
 */
export async function registerGraphWebhook(
  app: FastifyInstance,
  deps: {
    db: Db;
    sync: Pick<SyncService, "requestSync">;
    secrets: PushSecrets;
    log: { warn(obj: object, msg: string): void };
  },
): Promise<void> {
  await app.register(async (scope) => {
    await registerRateLimit(
      scope,
      (wait) => `Too many notifications from this address. Try again in ${wait} seconds.`,
    );
    scope.post<{ Querystring: { validationToken?: string } }>(
      GRAPH_WEBHOOK_PATH,
      { config: perMinute(GRAPH_WEBHOOK_REQUESTS_PER_MINUTE) },
      async (request, reply) => {
        const validationToken = request.query.validationToken;
        if (typeof validationToken === "string") {
          // Echo only plain printable text of sane length; nosniff (helmet) keeps it from being HTML.
          const safe = validationToken.slice(0, 1024).replace(/[^\x20-\x7e]/g, "");
          return reply.code(200).type("text/plain; charset=utf-8").send(safe);
        }
        const parsed = notificationsSchema.safeParse(request.body);
        if (!parsed.success) return reply.code(202).send();
        const notifications = parsed.data.value;
        if (notifications.length > MAX_GRAPH_NOTIFICATIONS) {
          throw new DomainError(
            "payload_too_large",
            `At most ${MAX_GRAPH_NOTIFICATIONS} notifications are accepted in one request.`,
          );
        }
        // Checked by computation first: forged clientStates never reach the database.
        const claims = notifications.map((n) => deps.secrets.graphAccountOf(n.clientState ?? ""));
        const claimed = [...new Set(claims.filter((id): id is string => id !== null))];
        const known =
          claimed.length === 0
            ? new Set<string>()
            : new Set(
                (
                  await deps.db
                    .select({ accountId: syncStates.accountId })
                    .from(syncStates)
                    .where(inArray(syncStates.accountId, claimed))
                ).map((row) => row.accountId),
              );
        for (const accountId of known) await deps.sync.requestSync(accountId, "push");
        const accepted = claims.filter((id) => id !== null && known.has(id)).length;
        if (accepted < notifications.length) {
          deps.log.warn(
            { received: notifications.length, accepted, accounts: known.size },
            "graph notifications with an unknown account or wrong clientState ignored",
          );
        }
        return reply.code(202).send();
      },
    );
  });
}
