import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError, apiRequest } from "./api.ts";
import { readSessionToken, SESSION_TOKEN_KEY } from "./storage-keys.ts";

export const SESSION_QUERY_KEY = ["/api/auth/session"] as const;

/** The signed-in user as the session call returns it. */
export interface SessionUser {
  id: string;
  email: string;
  displayName: string;
  [key: string]: unknown;
}

export type SessionState =
  | { status: "loading"; user: null }
  | { status: "authenticated"; user: SessionUser }
  | { status: "anonymous"; user: null };

/** The stored token, re-read when another tab changes it (the storage event). */
export function useStoredToken(): string | null {
  const [token, setToken] = useState(readSessionToken);
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key === SESSION_TOKEN_KEY) setToken(readSessionToken());
    };
    const onLocal = () => setToken(readSessionToken());
    window.addEventListener("storage", onStorage);
    window.addEventListener("mailwise:session-token", onLocal);
    return () => {
      window.removeEventListener("storage", onStorage);
      window.removeEventListener("mailwise:session-token", onLocal);
    };
  }, []);
  return token;
}

/** Spec section 4: authenticated only if a token is stored and the session call returns a user. */
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
  });
  if (token === null) return { status: "anonymous", user: null };
  if (query.isPending) return { status: "loading", user: null };
  const user = query.data?.user;
  return user ? { status: "authenticated", user } : { status: "anonymous", user: null };
}
