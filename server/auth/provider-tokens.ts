import type * as oauth from "oauth4webapi";

/** The tokens a provider granted, in plaintext; they exist only in memory between calls. */
export interface ProviderTokens {
  accessToken: string;
  /** Absent when the provider sent none (Google on refresh): keep the one we have. */
  refreshToken: string | undefined;
  expiresAt: Date | null;
  scope: string | undefined;
}

export function tokensFrom(response: oauth.TokenEndpointResponse, nowMs: number): ProviderTokens {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    expiresAt: typeof response.expires_in === "number" ? new Date(nowMs + response.expires_in * 1000) : null,
    scope: response.scope,
  };
}
