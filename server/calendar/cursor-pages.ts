import type { ProviderHttp, ProviderRequest } from "../providers/http/client.ts";
import { ProviderRequestError } from "../providers/http/errors.ts";
import { type CalendarChanges, CalendarCursorExpiredError, type ProviderEvent } from "./provider.ts";

// Both calendar adapters page through a listing that ends in a cursor (Google's sync token,
// Graph's delta link) and read changes since one the same way; only the payload shapes differ.

/**
 * One page of a cursor listing. A 410 means the provider no longer knows the cursor, which the
 * syncer answers with a full sync, so it is thrown as CalendarCursorExpiredError.
 */
export async function readCursorPage(
  http: ProviderHttp,
  request: ProviderRequest,
  expiredMessage: string,
): Promise<unknown> {
  try {
    return await http.json<unknown>(request);
  } catch (err) {
    if (err instanceof ProviderRequestError && err.status === 410)
      throw new CalendarCursorExpiredError(expiredMessage, { cause: err });
    throw err;
  }
}

/**
 * One round of changes: an item that maps to an event is upserted; one that does not (a removal,
 * or a cancelled occurrence without times) is removed by its id.
 */
export function changesOf<T extends { id: string }>(
  items: readonly T[],
  map: (item: T) => ProviderEvent | undefined,
  cursor: string,
): CalendarChanges {
  const upserts: ProviderEvent[] = [];
  const removedIds: string[] = [];
  for (const item of items) {
    const mapped = map(item);
    if (mapped) upserts.push(mapped);
    else removedIds.push(item.id);
  }
  return { upserts, removedIds, cursor };
}
