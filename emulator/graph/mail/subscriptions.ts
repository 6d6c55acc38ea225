import type { FastifyInstance } from "fastify";
import { bodyObject } from "../../gmail/params.ts";
import { microsoftObjectId } from "../../identities.ts";
import type { MailServices } from "../../mailbox/services.ts";
import {
  type GraphChangeType,
  type GraphSubscription,
  MAX_MAIL_SUBSCRIPTION_MS,
  parseMailResource,
  SubscriptionError,
} from "../../push/graph-subscriptions.ts";
import { graphCaller } from "./caller.ts";
import { sendGraphError } from "./errors.ts";

const CHANGE_TYPES = new Set<GraphChangeType>(["created", "updated", "deleted"]);

function present(subscription: GraphSubscription): Record<string, unknown> {
  return {
    "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#subscriptions/$entity",
    id: subscription.id,
    resource: subscription.resource,
    applicationId: subscription.applicationId,
    changeType: subscription.changeTypes.join(","),
    clientState: subscription.clientState ?? null,
    notificationUrl: subscription.notificationUrl,
    notificationQueryOptions: null,
    lifecycleNotificationUrl: null,
    expirationDateTime: new Date(subscription.expirationDateTime).toISOString(),
    creatorId: subscription.userId,
    includeResourceData: false,
    latestSupportedTlsVersion: "v1_2",
    encryptionCertificate: null,
    encryptionCertificateId: null,
    notificationUrlAppId: null,
  };
}

export function registerGraphSubscriptionRoutes(app: FastifyInstance, mail: MailServices): void {
  const now = () => mail.context.clock.now();

  /** Mail subscriptions may not outlive ~3 days, nor expire in the past. */
  function expiration(value: unknown): number | string {
    const at = typeof value === "string" ? Date.parse(value) : Number.NaN;
    if (!Number.isFinite(at)) return "expirationDateTime is required and must be a valid date.";
    if (at <= now()) return "Subscription expiration can only be in the future.";
    if (at > now() + MAX_MAIL_SUBSCRIPTION_MS) {
      return `Subscription expiration can only be ${MAX_MAIL_SUBSCRIPTION_MS / 60_000} minutes in the future.`;
    }
    return at;
  }

  app.post("/subscriptions", { config: { graphNeed: "read" } }, async (request, reply) => {
    const { identity, mailbox } = graphCaller(request);
    const body = bodyObject(request.body);
    const bad = (message: string) => sendGraphError(reply, 400, "ExtensionError", message, now());
    const changeTypes = String(body.changeType ?? "")
      .split(",")
      .map((type) => type.trim()) as GraphChangeType[];
    if (changeTypes.length === 0 || !changeTypes.every((type) => CHANGE_TYPES.has(type))) {
      return bad("changeType must be a comma-separated list of created, updated and deleted.");
    }
    const notificationUrl = typeof body.notificationUrl === "string" ? body.notificationUrl : "";
    if (!/^https?:\/\//.test(notificationUrl)) return bad("The notificationUrl must be an https URL.");
    const resource = typeof body.resource === "string" ? body.resource : "";
    const scope = parseMailResource(resource);
    if (scope === undefined) return bad(`Resource '${resource}' is not supported.`);
    const expiresAt = expiration(body.expirationDateTime);
    if (typeof expiresAt === "string") return bad(expiresAt);
    const clientState = typeof body.clientState === "string" ? body.clientState : undefined;
    if (clientState !== undefined && clientState.length > 128)
      return bad("clientState must be at most 128 characters.");
    const grantClient = mail.context.tokens.grantOfToken(
      (request.headers.authorization ?? "").replace(/^Bearer\s+/i, ""),
      "microsoft",
    )?.clientId;
    try {
      const subscription = await mail.graphSubscriptions.create({
        mailboxKey: mailbox.key,
        userId: microsoftObjectId(identity.id),
        applicationId: grantClient ?? "00000000-0000-0000-0000-000000000000",
        resource,
        folder: scope.folder,
        changeTypes,
        notificationUrl,
        clientState,
        expirationDateTime: expiresAt,
      });
      return reply.code(201).send(present(subscription));
    } catch (error) {
      if (error instanceof SubscriptionError)
        return sendGraphError(reply, error.status, error.code, error.message, now());
      throw error;
    }
  });

  app.get("/subscriptions", { config: { graphNeed: "read" } }, (request) => ({
    value: mail.graphSubscriptions.list(graphCaller(request).mailbox.key).map(present),
  }));

  app.get<{ Params: { id: string } }>(
    "/subscriptions/:id",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      const subscription = mail.graphSubscriptions.get(request.params.id, graphCaller(request).mailbox.key);
      if (subscription === undefined)
        return sendGraphError(reply, 404, "ResourceNotFound", "The object was not found.", now());
      return present(subscription);
    },
  );

  app.patch<{ Params: { id: string } }>(
    "/subscriptions/:id",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      const subscription = mail.graphSubscriptions.get(request.params.id, graphCaller(request).mailbox.key);
      if (subscription === undefined)
        return sendGraphError(reply, 404, "ResourceNotFound", "The object was not found.", now());
      const expiresAt = expiration(bodyObject(request.body).expirationDateTime);
      if (typeof expiresAt === "string")
        return sendGraphError(reply, 400, "ExtensionError", expiresAt, now());
      subscription.expirationDateTime = expiresAt;
      return present(subscription);
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/subscriptions/:id",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      if (!mail.graphSubscriptions.delete(request.params.id, graphCaller(request).mailbox.key)) {
        return sendGraphError(reply, 404, "ResourceNotFound", "The object was not found.", now());
      }
      return reply.code(204).send();
    },
  );
}
