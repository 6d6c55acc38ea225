import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { DomainError } from "../http/errors.ts";
import type { SyncService } from "../sync/index.ts";
import { type PushSecrets, safeEqual } from "../sync/push-secrets.ts";
import { GMAIL_WEBHOOK_PATH } from "../sync/watch-renewer.ts";
import { gmailAccountsByEmail } from "./account-lookup.ts";

const pushBodySchema = z.object({
  message: z.object({ data: z.string().max(10_000) }),
});
const notificationSchema = z.object({
  emailAddress: z.string().min(3).max(320),
  historyId: z.union([z.string(), z.number()]),
});

/**
 * Gmail's Pub/Sub push: the token in the URL proves the sender (compared in constant time), the
 * payload names the mailbox. We only enqueue a sync (history.list runs in a job) and answer 204
 * at once, as Pub/Sub wants a quick 2xx.
 */
export function registerGmailWebhook(
  app: FastifyInstance,
  deps: { db: Db; sync: Pick<SyncService, "requestSync">; secrets: PushSecrets },
): void {
  app.post<{ Querystring: { token?: string } }>(GMAIL_WEBHOOK_PATH, async (request, reply) => {
    const token = typeof request.query.token === "string" ? request.query.token : "";
    if (!safeEqual(token, deps.secrets.gmailToken)) {
      throw new DomainError("forbidden", "Invalid push token.");
    }
    const body = pushBodySchema.safeParse(request.body);
    if (!body.success) throw new DomainError("bad_request", "Not a Pub/Sub push message.");
    let notification: z.infer<typeof notificationSchema>;
    try {
      notification = notificationSchema.parse(
        JSON.parse(Buffer.from(body.data.message.data, "base64").toString("utf8")),
      );
    } catch {
      throw new DomainError("bad_request", "Not a Gmail notification.");
    }
    for (const accountId of await gmailAccountsByEmail(deps.db, notification.emailAddress)) {
      await deps.sync.requestSync(accountId, "push");
    }
    return reply.code(204).send();
  });
}
