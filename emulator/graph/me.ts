import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context.ts";
import { emulatorBaseUrl } from "../context.ts";
import { field, stringFields } from "../http/fields.ts";
import type { Identity } from "../identities.ts";
import { microsoftPairwiseSub } from "../identities.ts";
import { authenticateGraphRequest } from "./auth.ts";
import { graphRequestIds, sendGraphError } from "./errors.ts";

const GRAPH = "/graph.microsoft.com";

function userResource(identity: Identity): Record<string, string | null | string[]> {
  return {
    businessPhones: [],
    displayName: identity.name,
    givenName: identity.givenName,
    jobTitle: null,
    mail: identity.email,
    mobilePhone: null,
    officeLocation: null,
    preferredLanguage: "en-US",
    surname: identity.familyName,
    userPrincipalName: identity.email,
    id: identity.id,
  };
}

/** Graph `/v1.0/me` (with `$select`) and the OIDC userinfo endpoint Microsoft hosts on Graph. */
export function registerGraphMeRoutes(app: FastifyInstance, context: EmulatorContext): void {
  app.get(`${GRAPH}/v1.0/me`, (request, reply) => {
    const caller = authenticateGraphRequest(context, request, reply);
    if (caller === undefined) return reply;
    const user = userResource(caller.identity);
    const select = field(stringFields(request.query), "$select");
    let body: Record<string, unknown> = user;
    if (select !== undefined) {
      const names = select.split(",").map((name) => name.trim());
      const unknown = names.find((name) => !(name in user));
      if (unknown !== undefined) {
        return sendGraphError(
          request,
          reply,
          400,
          "BadRequest",
          `Could not find a property named '${unknown}' on type 'microsoft.graph.user'.`,
          context.clock.now(),
        );
      }
      body = Object.fromEntries(names.map((name) => [name, user[name]]));
    }
    const ids = graphRequestIds(request);
    return reply
      .header("request-id", ids.requestId)
      .header("client-request-id", ids.clientRequestId)
      .send({
        "@odata.context": `${emulatorBaseUrl(context, request)}${GRAPH}/v1.0/$metadata#users/$entity`,
        ...body,
      });
  });

  app.get(`${GRAPH}/oidc/userinfo`, (request, reply) => {
    const caller = authenticateGraphRequest(context, request, reply);
    if (caller === undefined) return reply;
    const { identity } = caller;
    return reply.send({
      // The same pairwise sub as the id_token the app received.
      sub: microsoftPairwiseSub(identity.id, caller.grant.clientId),
      name: identity.name,
      family_name: identity.familyName,
      given_name: identity.givenName,
      email: identity.email,
    });
  });
}
