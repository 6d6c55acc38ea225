import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import { type Config, loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Role } from "../services.ts";
import { type PortReservation, reservePort } from "./free-port.ts";

export const TEST_SECRET_KEY = "test-secret-key-not-for-production-0123456789";

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
    ...env,
  });
  const app = await buildApp({ config, database, ...(options.role ? { role: options.role } : {}) });
  await reservation?.release();
  await app.listen({ host: "127.0.0.1", port });
  return { url, app, config, close: () => app.close() };
}
