import { jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { z } from "zod";
import { ProviderError, toProviderError } from "./errors.ts";
import type { ProviderIdentity } from "./identity.ts";
import { type OAuthProvider, requestOptions } from "./oauth-clients.ts";

const idTokenClaims = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  name: z.string().optional(),
});

const userInfo = z.object({
  sub: z.string().min(1),
  email: z.string().min(1),
  name: z.string().optional(),
});

/**
 * The Google identity behind a token response. oauth4webapi has already checked the id_token's
 * iss, aud, exp and nonce; we also verify its signature against Google's JWKS, because the
 * identity decides which Mailwise user gets a session. The address comes from the id_token, or
 * from userinfo when the token leaves it out.
 */
export async function readGoogleIdentity(
  p: OAuthProvider,
  tokens: oauth.TokenEndpointResponse,
): Promise<ProviderIdentity> {
  const idToken = tokens.id_token;
  if (!idToken || !p.jwks) throw new ProviderError("permanent", "Google sent no id_token");
  let verified: z.infer<typeof idTokenClaims>;
  try {
    const validated = oauth.getValidatedIdTokenClaims(tokens);
    const { payload } = await jwtVerify(idToken, p.jwks, {
      issuer: typeof validated?.iss === "string" ? validated.iss : p.as.issuer,
      audience: p.client.client_id,
      algorithms: ["RS256"],
    });
    verified = idTokenClaims.parse(payload);
  } catch (err) {
    throw toProviderError(err, "Google id_token verification failed");
  }

  let email = verified.email;
  let name = verified.name;
  if (!email) {
    try {
      const endpoint = p.as.userinfo_endpoint;
      const response = await oauth.userInfoRequest(
        p.as,
        p.client,
        tokens.access_token,
        requestOptions(endpoint),
      );
      const info = userInfo.parse(
        await oauth.processUserInfoResponse(p.as, p.client, verified.sub, response),
      );
      email = info.email;
      name ??= info.name;
    } catch (err) {
      throw toProviderError(err, "Google userinfo failed");
    }
  }
  return { providerAccountId: verified.sub, email, displayName: name?.trim() || email };
}
