import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { sessionOf } from "../../http/auth-guard.ts";
import { DomainError } from "../../http/errors.ts";
import type { UploadStore } from "./upload-store.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uploadId(params: unknown): string {
  const id = (params as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || !UUID.test(id)) throw new DomainError("not_found", "No such upload.");
  return id;
}

/**
 * POST /api/uploads (multipart/form-data, one file part) streams the file to disk and answers
 * the Upload; GET and DELETE /api/uploads/:id. Multipart is registered in this scope only, so no
 * other route accepts it. Nothing here logs: file names and bytes stay out of the logs.
 */
export function registerUploadRoutes(app: FastifyInstance, store: UploadStore): void {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { files: 1, fields: 0, parts: 1, headerPairs: 20, fieldNameSize: 100 },
    });
    const guarded = { preHandler: scope.requireSession };

    scope.post("/api/uploads", guarded, async (request, reply) => {
      if (!request.isMultipart())
        throw new DomainError("bad_request", "Send the file as multipart/form-data.");
      const { userId } = sessionOf(request);
      const room = await store.room(userId);
      // Browsers send a file name's UTF-8 bytes as they are; busboy would read them as Latin-1
      // (busboy's option, missing from @fastify/multipart's types).
      const options = {
        defParamCharset: "utf8",
        limits: { fileSize: Math.max(1, Math.min(room.fileMax, room.quotaLeft)) },
      } as Parameters<typeof request.file>[0];
      const part = await request.file(options);
      if (!part) throw new DomainError("bad_request", "The request carries no file.");
      try {
        const upload = await store.receive(
          userId,
          { file: part.file, fileName: part.filename, contentType: part.mimetype },
          room,
        );
        return reply.code(201).send(upload);
      } catch (err) {
        // What is left of a refused body is not read: the answer closes the connection.
        if (err instanceof DomainError && err.code === "payload_too_large")
          reply.header("connection", "close");
        throw err;
      }
    });

    scope.get("/api/uploads/:id", guarded, async (request) =>
      store.get(sessionOf(request).userId, uploadId(request.params)),
    );

    scope.delete("/api/uploads/:id", guarded, async (request, reply) => {
      await store.delete(sessionOf(request).userId, uploadId(request.params));
      return reply.code(204).send();
    });
  });
}
