import type { FastifyInstance } from "fastify";
import type { Database } from "../db/client.ts";

/** Liveness says the process answers; readiness says it can reach its database. */
export function registerHealthRoutes(app: FastifyInstance, database: Database): void {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    try {
      await database.ping();
      return { status: "ready", database: database.kind };
    } catch (err) {
      reply.log.warn({ err }, "readiness check failed");
      return reply.status(503).send({
        error: { code: "service_unavailable", message: "Database is not reachable" },
      });
    }
  });
}
