import type { FastifyInstance } from "fastify";
import type { AccountsResponse } from "../../contract/auth.ts";
import { sessionOf } from "../http/auth-guard.ts";
import { DomainError } from "../http/errors.ts";
import { presentAccount } from "./presenters.ts";
import { accountParamsSchema } from "./schema.ts";
import type { AuthServices } from "./services.ts";

/** The signed-in user's connected mailboxes: list and disconnect. */
export function registerAccountRoutes(app: FastifyInstance, services: AuthServices): void {
  app.get("/api/accounts", { preHandler: app.requireSession }, async (request): Promise<AccountsResponse> => {
    const rows = await services.accounts.list(sessionOf(request).userId);
    return { accounts: rows.map(presentAccount) };
  });

  app.delete("/api/accounts/:id", { preHandler: app.requireSession }, async (request) => {
    const { userId } = sessionOf(request);
    const params = accountParamsSchema.safeParse(request.params);
    if (!params.success) throw new DomainError("not_found", "No such account.");
    const { revokeFailure } = await services.disconnect.disconnect(userId, params.data.id);
    if (revokeFailure) {
      request.log.warn(
        { kind: revokeFailure.kind, reason: revokeFailure.message },
        "token revocation failed",
      );
    }
    return { success: true };
  });
}
