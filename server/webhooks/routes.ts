import type { FastifyInstance } from "fastify";
import type { Db } from "../db/client.ts";
import type { SyncService } from "../sync/index.ts";
import type { PushSecrets } from "../sync/push-secrets.ts";
import { registerGmailWebhook } from "./gmail-webhook.ts";
import { registerGraphWebhook } from "./graph-webhook.ts";

/** Push receivers: unauthenticated by session, authenticated by their own secrets. */
export async function registerWebhookRoutes(
  app: FastifyInstance,
  deps: { db: Db; sync: Pick<SyncService, "requestSync">; secrets: PushSecrets },
): Promise<void> {
  registerGmailWebhook(app, deps);
  await registerGraphWebhook(app, { ...deps, log: app.log });
}
