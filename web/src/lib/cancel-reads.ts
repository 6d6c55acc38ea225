import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Cancels the reads in flight that would bring back the state from before an optimistic change,
 * and leaves alone the queries still on their first load. TanStack cancels with revert: a query
 * that had no data goes back to pending with no fetch, and its view stays on "Loading…" until
 * something else reads it again (a reader opened from a notification marked its mail read while
 * the inbox was still loading, and the inbox never came). Returns those first loads' keys: their
 * answer may predate the change, so they are read again once it has settled (readAgain).
 */
export async function cancelReadsFor(queryClient: QueryClient, queryKey: QueryKey): Promise<QueryKey[]> {
  const firstLoads = queryClient
    .getQueryCache()
    .findAll({ queryKey, fetchStatus: "fetching" })
    .filter((query) => query.state.data === undefined)
    .map((query) => query.queryKey);
  await queryClient.cancelQueries({ queryKey, predicate: (query) => query.state.data !== undefined });
  return firstLoads;
}

/** Reads again the first loads cancelReadsFor left running. */
export function readAgain(queryClient: QueryClient, keys: readonly QueryKey[]): void {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey, exact: true });
}
