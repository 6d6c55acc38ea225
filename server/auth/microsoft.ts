import { z } from "zod";
import { kindForHttpStatus, ProviderError, toProviderError } from "./errors.ts";
import type { ProviderIdentity } from "./identity.ts";
import { providerFetchSignal } from "./oauth-clients.ts";

const me = z.object({
  id: z.string().min(1),
  displayName: z.string().nullish(),
  mail: z.string().nullish(),
  userPrincipalName: z.string().min(1),
});

/**
 * The Microsoft identity from Graph `/me`. Microsoft's id_token `sub` is pairwise per app and its
 * issuer varies by tenant, so Graph's stable account id is the better key. Personal accounts
 * often have no `mail`; their sign-in name is then the address.
 */
export async function readMicrosoftIdentity(
  graphBase: string,
  accessToken: string,
): Promise<ProviderIdentity> {
  let response: Response;
  try {
    response = await fetch(`${graphBase}/v1.0/me`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
      signal: providerFetchSignal(),
    });
  } catch (err) {
    throw toProviderError(err, "Graph /me failed");
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderError(kindForHttpStatus(response.status), `Graph /me answered HTTP ${response.status}`);
  }
  const parsed = me.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new ProviderError("permanent", "Graph /me answered an unexpected body");
  const email = parsed.data.mail || parsed.data.userPrincipalName;
  return {
    providerAccountId: parsed.data.id,
    email,
    displayName: parsed.data.displayName?.trim() || email,
  };
}
