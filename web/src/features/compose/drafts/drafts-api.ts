import { useQuery } from "@tanstack/react-query";
import type { Draft, DraftList, SaveDraftRequest, SavedDraft } from "../../../../../contract/drafts.ts";
import { apiRequest } from "../../../lib/api.ts";

/** Drafts at the provider (issue 36): the list, one draft to reopen, and a save. */
export const draftKeys = {
  all: ["drafts"] as const,
  list: () => [...draftKeys.all, "list"] as const,
  one: (id: string) => [...draftKeys.all, "one", id] as const,
};

/** Our ids embed Graph's, which hold "/" and "+": one path segment, escaped. */
const draftPath = (id: string) => `/api/drafts/${encodeURIComponent(id)}`;

export function useDrafts() {
  return useQuery({
    queryKey: draftKeys.list(),
    queryFn: () => apiRequest<DraftList>("GET", "/api/drafts"),
    // Drafts written in Gmail/Outlook appear without a push; a minute is fresh enough.
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}

/** One draft with its content, for reopening compose; only while `id` is set. */
export function useDraft(id: string | null) {
  return useQuery({
    queryKey: draftKeys.one(id ?? ""),
    queryFn: () => apiRequest<Draft>("GET", draftPath(id ?? "")),
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

export function saveDraft(body: SaveDraftRequest): Promise<SavedDraft> {
  return apiRequest<SavedDraft>("PUT", "/api/drafts", body);
}
