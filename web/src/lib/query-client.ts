import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { apiRequest } from "./api.ts";

/** Default query: the key's first element is the API path; a 401 yields null (spec section 7). */
const defaultQueryFn: QueryFunction = ({ queryKey, signal }) =>
  apiRequest("GET", String(queryKey[0]), undefined, { on401: "returnNull", signal });

/** Spec section 9: fresh for 30 s, no retries, no refetch on focus, reconnect or interval. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        staleTime: 30_000,
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        refetchInterval: false,
      },
      // Issue 38: offline, TanStack would pause a mutation and send it on reconnect; Mailwise
      // refuses actions taken offline instead (api.ts), so mutations always run at once.
      mutations: { retry: false, networkMode: "always" },
    },
  });
}
