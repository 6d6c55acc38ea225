import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import type { SessionUser as ContractSessionUser } from "../../../contract/auth.ts";
import { ApiError, apiRequest, SESSION_TOKEN_EVENT, setUnauthorizedHandler } from "./api.ts";
import { forgetAnswers } from "./etag-memory.ts";
import { clearPersistedQueries } from "./persisted-queries.ts";
import { LEGACY_SESSION_TOKEN_KEY, readSessionToken, SESSION_TOKEN_KEY } from "./storage-keys.ts";

export const SESSION_QUERY_KEY = ["/api/auth/session"] as const;

/** The signed-in user as the session call returns it (contract/auth.ts). */
export type SessionUser = ContractSessionUser;

export type SessionState =
  | { status: "loading"; user: null }
  | { status: "authenticated"; user: SessionUser }
  | { status: "anonymous"; user: null };

function announceTokenChange(): void {
  window.dispatchEvent(new Event(SESSION_TOKEN_EVENT));
}

/** Keeps the token where every call reads it (spec section 3) and tells this tab's session. */
export function storeSessionToken(token: string): void {
  localStorage.setItem(SESSION_TOKEN_KEY, token);
  announceTokenChange();
}

export function clearSessionToken(): void {
  try {
    localStorage.removeItem(SESSION_TOKEN_KEY);
    localStorage.removeItem(LEGACY_SESSION_TOKEN_KEY);
  } catch {
    // storage unavailable: nothing was stored either
  }
  clearPersistedQueries();
  forgetAnswers();
  announceTokenChange();
}

/** The stored token, re-read when another tab changes it (the storage event). */
export function useStoredToken(): string | null {
  const [token, setToken] = useState(readSessionToken);
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key === SESSION_TOKEN_KEY) setToken(readSessionToken());
    };
    const onLocal = () => setToken(readSessionToken());
    window.addEventListener("storage", onStorage);
    window.addEventListener(SESSION_TOKEN_EVENT, onLocal);
    // The token may have changed between the first render and this subscription.
    onLocal();
    return () => {
      window.removeEventListener("storage", onStorage);
      window.removeEventListener(SESSION_TOKEN_EVENT, onLocal);
    };
  }, []);
  return token;
}

/** Spec sections 7 and 9: stale 5 min, kept 10 min, 2 retries except on 401, refetch on reconnect only. */
export function useSession(): SessionState {
  const token = useStoredToken();
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, token],
    queryFn: ({ signal }) =>
      apiRequest<{ user: SessionUser | null }>("GET", SESSION_QUERY_KEY[0], undefined, { signal }),
    enabled: token !== null,
    staleTime: 5 * 60_000,
    gcTime: 10 * 60_000,
    retry: (failureCount, error) => !(error instanceof ApiError && error.status === 401) && failureCount < 2,
    refetchOnWindowFocus: false,
    refetchOnReconnect: true,
    // A new token for the same person (e.g. after linking a mailbox) should not blank the page
    // while it is checked; a removed token still signs out at once (the branch below).
    placeholderData: (previous) => previous,
  });
  // Spec section 4: authenticated only if a token is stored and the session call returns a user.
  if (token === null) return { status: "anonymous", user: null };
  if (query.isPending) return { status: "loading", user: null };
  const user = query.data?.user;
  return user ? { status: "authenticated", user } : { status: "anonymous", user: null };
}

/** Re-reads the session, e.g. after a sign-in stored a new token. */
export function refreshSession(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
}

/**
 * Spec section 4: on any 401 the token is gone (api.ts removed it and saved the reason), cached
 * data is dropped and the user goes to /login without a full page load.
 */
export function useUnauthorizedRedirect(): void {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      // After the failing query has settled, so clearing does not race its own result.
      setTimeout(() => queryClient.clear(), 0);
      navigate("/login", { replace: true });
    });
  }, [queryClient, navigate]);
}
