import { randomBytes, randomUUID } from "node:crypto";
import Fastify from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { createPushSecrets } from "../sync/push-secrets.ts";
import { GRAPH_WEBHOOK_PATH } from "../sync/watch-renewer.ts";
import { registerGraphWebhook } from "./graph-webhook.ts";

/**
 * Issue 13.5: forged notifications cost no database read and no log line each. The database is a
 * trap that fails the test if touched; the log records what the route writes.
 */
const warnings: Array<{ obj: object; msg: string }> = [];
const synced: string[] = [];
let dbTouched = 0;
const trap = new Proxy({} as Db, {
  get() {
    dbTouched += 1;
    throw new Error("the database was read for forged notifications");
  },
});
const app = Fastify();
const secrets = createPushSecrets({ configured: undefined, secretKey: randomBytes(32) });

beforeAll(async () => {
  await registerGraphWebhook(app, {
    db: trap,
    sync: { requestSync: async (accountId: string) => void synced.push(accountId) },
    secrets,
    log: { warn: (obj, msg) => void warnings.push({ obj, msg }) },
  } as Parameters<typeof registerGraphWebhook>[1]);
  await app.ready();
});
afterAll(() => app.close());

it("100 forged notifications: one summary line, no database read, no sync, 202", async () => {
  const someAccount = randomUUID();
  const forged = [
    ...Array.from({ length: 60 }, (_, i) => ({ subscriptionId: `s${i}`, clientState: `forged-${i}` })),
    ...Array.from({ length: 40 }, (_, i) => ({
      subscriptionId: `t${i}`,
      clientState: `${someAccount}.${"A".repeat(43)}`,
    })),
  ];
  const response = await app.inject({ method: "POST", url: GRAPH_WEBHOOK_PATH, payload: { value: forged } });
  expect(response.statusCode).toBe(202);
  expect(dbTouched).toBe(0);
  expect(synced).toEqual([]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]?.obj).toEqual({ received: 100, accepted: 0, accounts: 0 });
});
