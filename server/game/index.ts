import type { FastifyInstance } from "fastify";
import { displayNameRequestSchema, leaderboardSettingsPatchSchema } from "../../contract/game.ts";
import type { Db } from "../db/client.ts";
import type { EventBus } from "../events.ts";
import { sessionOf } from "../http/auth-guard.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { parseInput } from "../mail/validation.ts";
import { reservedNameProblem } from "./display-name.ts";
import { createGameService, type GameConfig, type GameService } from "./game-service.ts";

/**
 * Builds the game service and subscribes it to the domain events of provider-confirmed actions:
 * the mail services emit them only for the emails whose provider write succeeded.
 */
export function createGameServices(deps: {
  db: Db;
  clock: Clock;
  config: GameConfig;
  events: EventBus;
  log: { error(obj: object, msg: string): void };
}): GameService {
  const game = createGameService(deps);
  const { events } = deps;
  const logged = (what: string) => (err: unknown) => deps.log.error({ err }, `recording ${what} failed`);
  events.on("email.archived", ({ userId, emailIds }) =>
    game.processed(userId, emailIds).catch(logged("archive")),
  );
  events.on("email.trashed", ({ userId, emailIds }) =>
    game.processed(userId, emailIds).catch(logged("delete")),
  );
  events.on("email.starred", ({ userId, emailIds, starred }) =>
    starred ? game.processed(userId, emailIds).catch(logged("star")) : undefined,
  );
  events.on("email.flagged", ({ userId, emailIds, flagged }) =>
    flagged ? game.processed(userId, emailIds).catch(logged("flag")) : undefined,
  );
  events.on("email.read", ({ userId }) => game.read(userId).catch(logged("read")));
  events.on("email.unsubscribed", ({ userId, senderAddress, status }) =>
    status === "done" ? game.unsubscribed(userId, senderAddress).catch(logged("unsubscribe")) : undefined,
  );
  events.on("ai.used", ({ userId, emailId }) => game.aiUsed(userId, emailId).catch(logged("AI use")));
  events.on("accounts.changed", ({ userId }) => game.joined(userId).catch(logged("sign-up")));
  return game;
}

/** GET /api/badges/progress, GET /api/leaderboard, PATCH /api/user/display-name, leaderboard settings. */
export function registerGameApi(app: FastifyInstance, game: GameService): void {
  const guarded = { preHandler: app.requireSession };
  app.decorate("game", game);
  app.get("/api/badges/progress", guarded, async (request) => game.progress(sessionOf(request).userId));
  app.get("/api/leaderboard", guarded, async (request) => game.leaderboard(sessionOf(request).userId));
  app.patch("/api/user/display-name", guarded, async (request) => {
    const parsed = displayNameRequestSchema.safeParse(request.body ?? {});
    // The Edit Name dialog shows this message as it is, so it says what is wrong with the name.
    const message = parsed.success
      ? reservedNameProblem(parsed.data.displayName)
      : (parsed.error.issues[0]?.message ?? "Display name is required");
    if (message || !parsed.success) {
      const shown = message ?? "Display name is required";
      throw new DomainError("validation_failed", shown, { displayName: shown });
    }
    return game.setDisplayName(sessionOf(request).userId, parsed.data.displayName);
  });
  app.get("/api/user/leaderboard-settings", guarded, async (request) =>
    game.settings(sessionOf(request).userId),
  );
  app.patch("/api/user/leaderboard-settings", guarded, async (request) => {
    const body = parseInput(leaderboardSettingsPatchSchema, request.body);
    return game.updateSettings(sessionOf(request).userId, body);
  });
}

declare module "fastify" {
  interface FastifyInstance {
    /** The game service; tests wait on idle() and feed it actions. */
    game: GameService;
  }
}
