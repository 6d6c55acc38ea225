import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import { type Config, loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { freePort } from "./free-port.ts";

export interface TestServer {
  url: string;
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/**
 * A real server on a free port over the given database; tests talk to it with fetch.
 * The port is chosen first so PUBLIC_URL (and OAuth redirect URIs) are right from the start.
 */
export async function startTestServer(
  database: Database,
  env: Record<string, string> = {},
): Promise<TestServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    PORT: String(port),
    PUBLIC_URL: url,
    ...env,
  });
  const app = await buildApp({ config, database });
  await app.listen({ host: "127.0.0.1", port });
  return { url, app, config, close: () => app.close() };
}
