import type { FastifyInstance } from "fastify";
import type { Database } from "../db/client.ts";
import type { MaintenanceStatus } from "../db/maintenance.ts";
import { isStorageFullError } from "../db/storage-errors.ts";

/**
 * Liveness says the process answers; readiness says its database answers with the schema this
 * code expects (the last committed migration applied and every table there), and has room to
 * write (not in a full-disk episode, decision 0053).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  database: Database,
  maintenance: () => MaintenanceStatus | undefined = () => undefined,
): void {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const storageFull = (since: Date) =>
      reply.status(503).send({
        error: {
          code: "storage_full",
          message: `The database's disk is full (since ${since.toISOString()}): writes fail until space is freed; the app resumes by itself.`,
        },
      });
    const storage = database.storage.status();
    // Answered without asking the database: while its disk is full it may not answer at all.
    if (storage.full) return storageFull(storage.since);
    let schema: Awaited<ReturnType<Database["schemaStatus"]>>;
    try {
      schema = await database.schemaStatus();
    } catch (err) {
      if (isStorageFullError(err)) return storageFull(new Date());
      reply.log.warn({ err }, "readiness check failed");
      return reply.status(503).send({
        error: { code: "service_unavailable", message: "Database is not reachable" },
      });
    }
    if (!schema.current) {
      const found = schema.applied ? `found ${schema.applied}` : "found no migrations";
      const missing =
        schema.missingTables.length > 0 ? `; missing tables: ${schema.missingTables.join(", ")}` : "";
      reply.log.warn({ schema }, "readiness check failed: schema not current");
      return reply.status(503).send({
        error: {
          code: "service_unavailable",
          message: `Database schema is not at the expected migration (expected ${schema.expected}, ${found}${missing})`,
        },
      });
    }
    // The last ANALYZE and (PGlite) VACUUM this process ran: statistics and space upkeep.
    return {
      status: "ready",
      database: database.kind,
      migration: schema.expected,
      maintenance: maintenance() ?? {},
    };
  });
}
