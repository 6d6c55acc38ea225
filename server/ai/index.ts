import type { FastifyInstance } from "fastify";
import { registerAiRoutes } from "./routes.ts";
import type { AiServices } from "./services.ts";

export { type AiDeps, type AiServices, createAiServices } from "./services.ts";

export function registerAiApi(app: FastifyInstance, ai: AiServices): void {
  registerAiRoutes(app, ai);
  app.decorate("ai", ai);
}

declare module "fastify" {
  interface FastifyInstance {
    /** The AI services; tests drive the analysis job through it. */
    ai: AiServices;
  }
}
