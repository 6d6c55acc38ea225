import type { InboxZeroProcessed, InboxZeroQueue } from "../../../../contract/inbox-zero.ts";
import { apiRequest } from "../../lib/api.ts";

const processedPath = (id: string) => `/api/inbox-zero/processed/${encodeURIComponent(id)}`;

/** GET /api/inbox-zero/queue: the unread mail not yet processed, newest first, and its count. */
export function fetchQueue(limit: number): Promise<InboxZeroQueue> {
  return apiRequest<InboxZeroQueue>("GET", `/api/inbox-zero/queue?limit=${limit}`);
}

export function markProcessed(id: string): Promise<InboxZeroProcessed> {
  return apiRequest<InboxZeroProcessed>("PUT", processedPath(id));
}

export function unmarkProcessed(id: string): Promise<InboxZeroProcessed> {
  return apiRequest<InboxZeroProcessed>("DELETE", processedPath(id));
}
