import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import {
  exportFileName,
  privacyDeleteRequestSchema,
  privacySettingUpdateSchema,
} from "../../contract/privacy.ts";
import { sessionOf } from "../http/auth-guard.ts";
import { parseInput } from "../mail/validation.ts";
import type { PrivacyServices } from "./service.ts";

/** The privacy API (contract/privacy.ts); everything acts on the signed-in person only. */
export function registerPrivacyRoutes(app: FastifyInstance, privacy: PrivacyServices): void {
  const guarded = { preHandler: app.requireSession };

  app.get("/api/privacy/settings", guarded, async (request) =>
    privacy.settings.get(sessionOf(request).userId),
  );

  app.post("/api/privacy/settings", guarded, async (request) => {
    const change = parseInput(privacySettingUpdateSchema, request.body);
    return privacy.settings.update(sessionOf(request).userId, change);
  });

  // Spec section 7: the answer downloads as a dated JSON file. It streams (export.ts): headers go
  // first, and a failure half way cuts the download short, which the client reports as failed.
  app.post("/api/privacy/export", guarded, async (request, reply) => {
    const { userId } = sessionOf(request);
    const chunks = privacy.exportFor(userId);
    return reply
      .header("content-type", "application/json; charset=utf-8")
      .header("content-disposition", `attachment; filename="${exportFileName(privacy.now())}"`)
      .header("cache-control", "no-store")
      .send(Readable.from(chunks));
  });

  app.post("/api/privacy/delete", guarded, async (request) => {
    const { immediate } = parseInput(privacyDeleteRequestSchema, request.body);
    const { userId } = sessionOf(request);
    return immediate ? privacy.deleteNow(userId) : privacy.scheduleDeletion(userId);
  });

  app.post("/api/privacy/delete/cancel", guarded, async (request) => {
    await privacy.cancelDeletion(sessionOf(request).userId);
    return privacy.settings.get(sessionOf(request).userId);
  });
}
