import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import { type Config, loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Role } from "../services.ts";
import { type PortReservation, reservePort } from "./free-port.ts";

export const TEST_SECRET_KEY = "test-secret-key-not-for-production-0123456789";
/** A fixed VAPID pair keeps tests from generating ./data/vapid.json in the working tree. */
export const TEST_VAPID_KEYS = {
  VAPID_PUBLIC_KEY: "BE1YlG45sHZEwKKNYrR_C7Xwp66CrHBXIpTSszxmkgPtkIssSMMVtyYK9bAI-P8_oIVhGeO9VDH9tX-W8SIyo1I",
  VAPID_PRIVATE_KEY: "rFbV5wtcW7jmg69MAHaiJOmDTMyjwC5N79cmUsvibnw",
};

export interface TestServer {
  url: string;
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/**
 * A real server on a free port over the given database; tests talk to it with fetch.
 * The port is chosen first so PUBLIC_URL (and OAuth redirect URIs) are right from the start;
 * pass one when a provider must know the redirect URIs before the server exists.
 */
export async function startTestServer(
  database: Database,
  env: Record<string, string> = {},
  options: { port?: number | PortReservation; role?: Role } = {},
): Promise<TestServer> {
  const reservation = typeof options.port === "number" ? undefined : (options.port ?? (await reservePort()));
  const port = typeof options.port === "number" ? options.port : (reservation?.port ?? 0);
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    PORT: String(port),
    PUBLIC_URL: url,
    // A fixed key keeps tests from generating ./data/secret.key in the working tree.
    SECRET_KEY: TEST_SECRET_KEY,
    ...TEST_VAPID_KEYS,
    ...env,
  });
  const app = await buildApp({ config, database, ...(options.role ? { role: options.role } : {}) });
  await reservation?.release();
  await app.listen({ host: "127.0.0.1", port });
  return { url, app, config, close: () => app.close() };
}
