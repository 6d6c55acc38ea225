import type { FastifyInstance } from "fastify";
import type { AccountSignature } from "../../contract/signatures.ts";
import { putSignatureRequestSchema } from "../../contract/signatures.ts";
import { accountParamsSchema } from "../auth/schema.ts";
import { sessionOf } from "../http/auth-guard.ts";
import { DomainError } from "../http/errors.ts";
import { parseInput } from "../mail/validation.ts";
import type { SignatureService } from "./signature-service.ts";

/** GET/PUT /api/accounts/:id/signature: the signed-in person's own accounts only. */
export function registerSignatureRoutes(app: FastifyInstance, signatures: SignatureService): void {
  const accountId = (params: unknown): string => {
    const parsed = accountParamsSchema.safeParse(params);
    if (!parsed.success) throw new DomainError("not_found", "No such account.");
    return parsed.data.id;
  };

  app.get(
    "/api/accounts/:id/signature",
    { preHandler: app.requireSession },
    async (request): Promise<AccountSignature> =>
      signatures.get(sessionOf(request).userId, accountId(request.params)),
  );

  app.put(
    "/api/accounts/:id/signature",
    { preHandler: app.requireSession },
    async (request): Promise<AccountSignature> => {
      const id = accountId(request.params);
      const { html } = parseInput(putSignatureRequestSchema, request.body);
      return signatures.put(sessionOf(request).userId, id, html);
    },
  );
}
