import type { FastifyServerOptions } from "fastify";
import type { Config } from "../config.ts";

/**
 * Logger options. Query strings are dropped from logged URLs because OAuth codes and the
 * callback's session token travel there; auth headers and cookies are redacted.
 */
export function loggerOptions(config: Pick<Config, "logLevel" | "env">): FastifyServerOptions["logger"] {
  return {
    level: config.logLevel,
    redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
    serializers: {
      req(req: { method: string; url: string; id: string }) {
        // A signed attachment link is a credential for an hour: its token stays out of logs.
        const path = (req.url.split("?")[0] ?? "").replace(
          /^\/api\/attachments\/.*/,
          "/api/attachments/[token]",
        );
        return { id: req.id, method: req.method, url: path };
      },
    },
  };
}
