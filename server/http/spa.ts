import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { ApiErrorBody } from "../../contract/errors.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Serves the built SPA. Hashed files under /assets are cached for a year; index.html is
 * revalidated so a deploy shows at once. Every other non-API GET gets index.html, and the
 * client router decides (including its 404 page).
 */
export async function registerSpa(app: FastifyInstance, distDir: string): Promise<void> {
  const indexPath = path.join(distDir, "index.html");
  const hasBuild = existsSync(indexPath);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const rel = path.relative(distDir, filePath);
        res.header("Cache-Control", rel.startsWith("assets") ? IMMUTABLE : "no-cache");
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const urlPath = request.url.split("?")[0] ?? "/";
    const isApi = urlPath === "/api" || urlPath.startsWith("/api/");
    const wantsPage = (request.method === "GET" || request.method === "HEAD") && !isApi;
    if (wantsPage && hasBuild && !path.extname(urlPath)) {
      return reply.header("Cache-Control", "no-cache").sendFile("index.html");
    }
    const payload: ApiErrorBody = {
      error: { code: "not_found", message: `No route for ${request.method} ${urlPath}` },
    };
    return reply.status(404).send(payload);
  });
}
