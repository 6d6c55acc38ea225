import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { EmulatorControl } from "./control.ts";
import { IdentityConflictError } from "./identities.ts";

const providerSchema = z.enum(["google", "microsoft"]);

const expireSchema = z
  .object({ accessToken: z.string().min(1).optional(), email: z.string().min(1).optional() })
  .refine((body) => body.accessToken !== undefined || body.email !== undefined, {
    message: "Give accessToken or email",
  });
const revokeSchema = z.object({ email: z.string().min(1), provider: providerSchema });
const clockSchema = z.object({ advanceSeconds: z.number().finite().nonnegative() });
const identitySchema = z.object({
  provider: providerSchema,
  email: z.email(),
  name: z.string().min(1),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
  id: z
    .string()
    .regex(/^[0-9A-Za-z_-]{1,64}$/)
    .optional(),
});

function invalid(reply: FastifyReply, error: z.ZodError): FastifyReply {
  return reply.code(400).send({
    error: "invalid_request",
    issues: error.issues.map((issue) => ({ path: issue.path, message: issue.message })),
  });
}

/**
 * Test-only controls under /_admin. Registered only when the emulator is built with admin on,
 * so a demo deployment cannot have its tokens revoked or its clock moved by a stranger.
 */
export function registerAdminRoutes(app: FastifyInstance, control: EmulatorControl): void {
  app.post("/_admin/tokens/expire", (request, reply) => {
    const parsed = expireSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    return reply.send({ expired: control.expireAccessTokens(parsed.data) });
  });

  app.post("/_admin/tokens/revoke", (request, reply) => {
    const parsed = revokeSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const known = control
      .listIdentities(parsed.data.provider)
      .some((identity) => identity.email.toLowerCase() === parsed.data.email.toLowerCase());
    if (!known) return reply.code(404).send({ error: "identity_not_found" });
    return reply.send({
      revokedGrants: control.revokeIdentityTokens(parsed.data.email, parsed.data.provider),
    });
  });

  app.post("/_admin/clock", (request, reply) => {
    const parsed = clockSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const now = control.advanceClock(parsed.data.advanceSeconds);
    return reply.send({
      now: new Date(now).toISOString(),
      offsetSeconds: control.state().clockOffsetSeconds,
    });
  });

  app.get("/_admin/state", (_request, reply) => reply.send(control.state()));

  app.post("/_admin/reset", (_request, reply) => {
    control.reset();
    return reply.code(204).send();
  });

  app.get("/_admin/identities", (_request, reply) => reply.send({ identities: control.listIdentities() }));

  app.post("/_admin/identities", (request, reply) => {
    const parsed = identitySchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    try {
      return reply.code(201).send(control.addIdentity(parsed.data));
    } catch (error) {
      if (error instanceof IdentityConflictError) return reply.code(409).send({ error: error.code });
      throw error;
    }
  });
}
