/**
 * Scheduled actions that need the person (contract/due-actions.ts, decision 0073): the list,
 * Retry and Dismiss. Only types come from the contract (no zod in the dashboard chunk).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DueActionAttentionList } from "../../../../contract/due-actions.ts";
import { toast } from "../../components/ui/toast-store.ts";
import { ApiError, apiRequest } from "../../lib/api.ts";

export const dueActionKeys = { failed: ["due-actions", "failed"] as const };

/** A failure happens in the worker, not in answer to a click: looked at again every half minute. */
const REFETCH_MS = 30_000;

export function useFailedDueActions() {
  return useQuery({
    queryKey: dueActionKeys.failed,
    queryFn: () => apiRequest<DueActionAttentionList>("GET", "/api/due-actions/failed"),
    refetchInterval: REFETCH_MS,
  });
}

function useDueActionMutation(method: "POST" | "DELETE", pathOf: (id: string) => string, failed: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<{ ok: true }>(method, pathOf(id)),
    // Gone from the list at once; the next fetch shows it again if the retry fails too.
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<DueActionAttentionList>(dueActionKeys.failed, (list) =>
        list ? { items: list.items.filter((item) => item.id !== id) } : list,
      );
    },
    onError: (err) => {
      toast({
        title: failed,
        description: err instanceof ApiError && err.message ? err.message : "Please try again.",
        variant: "destructive",
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: dueActionKeys.failed }),
  });
}

export const useRetryDueAction = () =>
  useDueActionMutation("POST", (id) => `/api/due-actions/${id}/retry`, "Could not retry");

export const useDismissDueAction = () =>
  useDueActionMutation("DELETE", (id) => `/api/due-actions/${id}`, "Could not dismiss");
