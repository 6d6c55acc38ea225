import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context.ts";
import { field, stringFields } from "../http/fields.ts";
import { sendHtml } from "../http/html.ts";
import type { Provider } from "../identities.ts";
import { chooserPage, consentPage, errorPage } from "./authorize-page.ts";
import type { RegisteredClient } from "./clients.ts";
import { isCodeChallengeMethod, isWellFormedChallenge } from "./pkce.ts";
import { parseScope } from "./scopes.ts";
import type { TokenPolicy } from "./token-service.ts";
import type { AuthorizationCodeRecord } from "./tokens.ts";

/** Why an authorization request cannot go ahead. */
export type AuthorizeFailure =
  | "unknown_tenant"
  | "missing_client_id"
  | "unknown_client"
  | "missing_redirect_uri"
  | "redirect_uri_mismatch"
  | "unsupported_response_type"
  | "unsupported_response_mode"
  | "missing_scope"
  | "invalid_scope"
  | "missing_code_challenge"
  | "invalid_code_challenge"
  | "login_required"
  | "flow_invalid"
  | "unknown_identity";

export interface AuthorizeFailureDetail {
  param?: string;
  value?: string;
}

/** How a provider words a failure: HTTP status for the page, OAuth error code, message. */
export interface AuthorizeFailureView {
  status: number;
  error: string;
  message: string;
}

/** The provider-specific half of the authorize endpoint; the flow itself is shared. */
export interface AuthorizeProvider {
  readonly provider: Provider;
  readonly policy: TokenPolicy;
  /** Microsoft's tenant path segment; undefined when fine. */
  tenantProblem(tenant: string | undefined): AuthorizeFailureDetail | undefined;
  unknownScopes(scopes: readonly string[]): string[];
  describeScope(scope: string): string;
  /**
   * Once redirect_uri is trusted, Microsoft sends most errors back to the client, while Google
   * shows its "Error 400" page. Client and redirect_uri errors are always pages, for both.
   */
  redirectsFailure(failure: AuthorizeFailure): boolean;
  describeFailure(failure: AuthorizeFailure, detail: AuthorizeFailureDetail): AuthorizeFailureView;
  /** Extra pairs for an error redirect beside `error` (Microsoft adds error_description). */
  errorRedirectParams(view: AuthorizeFailureView): Array<[string, string]>;
  /** Pairs for the success redirect beside `code` and `state` (Google adds scope, authuser...). */
  successRedirectParams(code: AuthorizationCodeRecord): Array<[string, string]>;
  cancelRedirectParams(): Array<[string, string]>;
}

const authorizationRequestSchema = z.object({
  tenant: z.string().optional(),
  clientId: z.string(),
  redirectUri: z.string(),
  requestedScopes: z.array(z.string()),
  scopes: z.array(z.string()),
  state: z.string().optional(),
  nonce: z.string().optional(),
  codeChallenge: z.string(),
  codeChallengeMethod: z.enum(["S256", "plain"]),
  offline: z.boolean(),
  forceConsent: z.boolean(),
  loginHint: z.string().optional(),
});

/** A validated authorization request, carried between the chooser and consent steps. */
export type AuthorizationRequest = z.infer<typeof authorizationRequestSchema>;

const flowSchema = z.object({
  v: z.literal(1),
  provider: z.enum(["google", "microsoft"]),
  issuedAt: z.number(),
  identityId: z.string().optional(),
  request: authorizationRequestSchema,
});
type Flow = z.infer<typeof flowSchema>;

/** A person gets an hour (emulator clock) to click through, then must start again. */
const FLOW_TTL_MS = 60 * 60 * 1000;

export type AuthorizeValidation =
  | { kind: "ok"; request: AuthorizationRequest; client: RegisteredClient }
  | {
      kind: "page";
      failure: AuthorizeFailure;
      detail: AuthorizeFailureDetail;
      client: RegisteredClient | undefined;
    }
  | {
      kind: "redirect";
      failure: AuthorizeFailure;
      detail: AuthorizeFailureDetail;
      client: RegisteredClient;
      redirectUri: string;
      state: string | undefined;
    };

/** Validates authorize parameters in the order the providers do: client and redirect_uri first. */
export function validateAuthorizationRequest(
  provider: AuthorizeProvider,
  context: EmulatorContext,
  params: Record<string, string>,
  tenant: string | undefined,
): AuthorizeValidation {
  const page = (failure: AuthorizeFailure, detail: AuthorizeFailureDetail, client?: RegisteredClient) =>
    ({ kind: "page", failure, detail, client }) as const;

  const tenantProblem = provider.tenantProblem(tenant);
  if (tenantProblem !== undefined) return page("unknown_tenant", tenantProblem);
  const clientId = field(params, "client_id");
  if (clientId === undefined) return page("missing_client_id", { param: "client_id" });
  const client = context.clients.find(provider.provider, clientId);
  if (client === undefined) return page("unknown_client", { value: clientId });
  const redirectUri = field(params, "redirect_uri");
  if (redirectUri === undefined) return page("missing_redirect_uri", { param: "redirect_uri" }, client);
  // Exact string match, as both providers require: no prefix, port or trailing-slash leniency.
  if (!client.redirectUris.includes(redirectUri)) {
    return page("redirect_uri_mismatch", { value: redirectUri }, client);
  }
  const responseType = field(params, "response_type");
  if (responseType !== "code") {
    return page("unsupported_response_type", { param: "response_type", value: responseType ?? "" }, client);
  }
  const responseMode = field(params, "response_mode");
  if (responseMode !== undefined && responseMode !== "query") {
    return page("unsupported_response_mode", { param: "response_mode", value: responseMode }, client);
  }

  // From here the redirect_uri is trusted, so errors may go back to the client.
  const state = field(params, "state");
  const fail = (failure: AuthorizeFailure, detail: AuthorizeFailureDetail): AuthorizeValidation =>
    failure === "login_required" || provider.redirectsFailure(failure)
      ? { kind: "redirect", failure, detail, client, redirectUri, state }
      : page(failure, detail, client);

  const prompt = parseScope(field(params, "prompt"));
  // The emulator keeps no sign-in session, so a silent request can never succeed.
  if (prompt.includes("none")) return fail("login_required", { param: "prompt" });
  const requestedScopes = parseScope(field(params, "scope"));
  if (requestedScopes.length === 0) return fail("missing_scope", { param: "scope" });
  const unknown = provider.unknownScopes(requestedScopes);
  if (unknown.length > 0) return fail("invalid_scope", { param: "scope", value: unknown.join(" ") });
  const codeChallenge = field(params, "code_challenge");
  if (codeChallenge === undefined) return fail("missing_code_challenge", { param: "code_challenge" });
  // Both providers default to "plain" when the method is omitted.
  const method = field(params, "code_challenge_method") ?? "plain";
  if (!isCodeChallengeMethod(method)) {
    return fail("invalid_code_challenge", { param: "code_challenge_method", value: method });
  }
  if (!isWellFormedChallenge(codeChallenge, method)) {
    return fail("invalid_code_challenge", { param: "code_challenge", value: codeChallenge });
  }

  return {
    kind: "ok",
    client,
    request: {
      tenant,
      clientId,
      redirectUri,
      requestedScopes,
      scopes: provider.policy.normalizeScopes(requestedScopes),
      state,
      nonce: field(params, "nonce"),
      codeChallenge,
      codeChallengeMethod: method,
      offline: field(params, "access_type") === "offline",
      forceConsent: prompt.includes("consent"),
      loginHint: field(params, "login_hint"),
    },
  };
}

function redirectTo(reply: FastifyReply, redirectUri: string, params: Array<[string, string]>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [name, value] of params) url.searchParams.append(name, value);
  return reply.code(302).header("location", url.toString()).header("cache-control", "no-store").send();
}

/**
 * Registers GET and POST on the provider's authorize path. GET validates and shows the account
 * chooser; POSTs carry the sealed flow through the consent step and end in a redirect.
 */
export function registerAuthorizeRoutes(
  app: FastifyInstance,
  path: string,
  provider: AuthorizeProvider,
  context: EmulatorContext,
): void {
  // Relative form action: the pages keep working behind a proxy that adds a path prefix.
  const action = path.slice(path.lastIndexOf("/") + 1);

  const showFailure = (
    reply: FastifyReply,
    failure: AuthorizeFailure,
    detail: AuthorizeFailureDetail,
    client: RegisteredClient | undefined,
  ) => {
    const view = provider.describeFailure(failure, detail);
    const details: Array<readonly [string, string]> = [];
    if (detail.param !== undefined && detail.value !== undefined) details.push([detail.param, detail.value]);
    else if (failure === "redirect_uri_mismatch" && detail.value !== undefined) {
      details.push(["redirect_uri", detail.value]);
    }
    if (client !== undefined) details.push(["client_id", client.clientId]);
    return sendHtml(
      reply,
      view.status,
      errorPage({
        provider: provider.provider,
        appName: client?.name,
        status: view.status,
        error: view.error,
        message: view.message,
        details,
      }),
    );
  };

  const showChooser = (reply: FastifyReply, client: RegisteredClient, request: AuthorizationRequest) => {
    const identities = context.identities.list(provider.provider);
    const hinted =
      request.loginHint === undefined
        ? undefined
        : context.identities.findByEmail(request.loginHint, provider.provider)[0];
    const flow: Flow = { v: 1, provider: provider.provider, issuedAt: context.clock.now(), request };
    return sendHtml(
      reply,
      200,
      chooserPage({
        provider: provider.provider,
        appName: client.name,
        identities,
        hintedId: hinted?.id,
        unmatchedHint: hinted === undefined ? request.loginHint : undefined,
        flow: context.flows.seal(flow),
        action,
      }),
    );
  };

  const start = (request: FastifyRequest, reply: FastifyReply, params: Record<string, string>) => {
    const tenant = stringFields(request.params).tenant;
    const result = validateAuthorizationRequest(provider, context, params, tenant);
    if (result.kind === "ok") return showChooser(reply, result.client, result.request);
    if (result.kind === "page") return showFailure(reply, result.failure, result.detail, result.client);
    const view = provider.describeFailure(result.failure, result.detail);
    const pairs: Array<[string, string]> = [["error", view.error], ...provider.errorRedirectParams(view)];
    if (result.state !== undefined) pairs.push(["state", result.state]);
    return redirectTo(reply, result.redirectUri, pairs);
  };

  const proceed = (reply: FastifyReply, sealed: string, body: Record<string, string>) => {
    const parsed = flowSchema.safeParse(context.flows.open(sealed));
    if (!parsed.success || parsed.data.provider !== provider.provider) {
      return showFailure(reply, "flow_invalid", {}, undefined);
    }
    const flow = parsed.data;
    const client = context.clients.find(provider.provider, flow.request.clientId);
    if (client === undefined || context.clock.now() - flow.issuedAt > FLOW_TTL_MS) {
      return showFailure(reply, "flow_invalid", {}, client);
    }
    const request = flow.request;
    const withState = (pairs: Array<[string, string]>): Array<[string, string]> =>
      request.state === undefined ? pairs : [...pairs, ["state", request.state]];

    const chosenId = field(body, "identity");
    if (chosenId !== undefined) {
      const identity = context.identities.find(provider.provider, chosenId);
      if (identity === undefined) return showFailure(reply, "unknown_identity", { value: chosenId }, client);
      const next: Flow = { ...flow, identityId: identity.id };
      const descriptions = [
        ...new Set(request.requestedScopes.map((scope) => provider.describeScope(scope))),
      ];
      return sendHtml(
        reply,
        200,
        consentPage({
          provider: provider.provider,
          appName: client.name,
          identity,
          scopeDescriptions: descriptions,
          flow: context.flows.seal(next),
          action,
        }),
      );
    }

    const decision = field(body, "decision");
    if (decision === "switch") return showChooser(reply, client, request);
    if (decision === "cancel") {
      return redirectTo(reply, request.redirectUri, withState(provider.cancelRedirectParams()));
    }
    if (decision === "allow" && flow.identityId !== undefined) {
      const identity = context.identities.find(provider.provider, flow.identityId);
      if (identity === undefined) {
        return showFailure(reply, "unknown_identity", { value: flow.identityId }, client);
      }
      const code = context.tokens.createCode(
        {
          provider: provider.provider,
          clientId: client.clientId,
          redirectUri: request.redirectUri,
          identityId: identity.id,
          scopes: request.scopes,
          codeChallenge: request.codeChallenge,
          codeChallengeMethod: request.codeChallengeMethod,
          nonce: request.nonce,
          offline: request.offline,
          forceConsent: request.forceConsent,
        },
        provider.policy.codePrefix,
      );
      return redirectTo(
        reply,
        request.redirectUri,
        withState([["code", code.value], ...provider.successRedirectParams(code)]),
      );
    }
    return showFailure(reply, "flow_invalid", {}, client);
  };

  app.get(path, (request, reply) => start(request, reply, stringFields(request.query)));
  app.post(path, (request, reply) => {
    const body = stringFields(request.body);
    const sealed = field(body, "flow");
    // OIDC allows the authorization request itself to be POSTed as a form.
    if (sealed === undefined) return start(request, reply, { ...stringFields(request.query), ...body });
    return proceed(reply, sealed, body);
  });
}
