/**
 * Queries and mutations for the privacy API (spec section 7, contract/privacy.ts), with the spec's
 * toasts. Only types and plain constants come from the contract (no zod in the dashboard chunk).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import type {
  PrivacyDeleteResponse,
  PrivacySettings,
  PrivacySettingUpdate,
} from "../../../../contract/privacy.ts";
import { toast } from "../../components/ui/toast-store.ts";
import { apiRequest, responseError } from "../../lib/api.ts";
import { clearSessionToken } from "../../lib/session.tsx";
import { readSessionToken } from "../../lib/storage-keys.ts";

export const privacyKeys = { settings: ["privacy", "settings"] as const };
const TRY_AGAIN = "Please try again.";

export function usePrivacySettings() {
  return useQuery({
    queryKey: privacyKeys.settings,
    queryFn: () => apiRequest<PrivacySettings>("GET", "/api/privacy/settings"),
  });
}

/** Sends the one changed setting (spec section 7) and shows the answer's settings. */
export function useUpdatePrivacySetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: PrivacySettingUpdate) =>
      apiRequest<PrivacySettings>("POST", "/api/privacy/settings", change),
    // The control shows the choice at once; a refusal puts the previous value back.
    onMutate: (change) => {
      const previous = queryClient.getQueryData<PrivacySettings>(privacyKeys.settings);
      if (previous) queryClient.setQueryData(privacyKeys.settings, { ...previous, ...change });
      return { previous };
    },
    onSuccess: (settings) => {
      queryClient.setQueryData(privacyKeys.settings, settings);
      toast({ title: "Privacy Settings Updated" });
    },
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(privacyKeys.settings, context.previous);
      toast({ title: "Update Failed", description: TRY_AGAIN, variant: "destructive" });
    },
  });
}

function fileNameOf(disposition: string | null): string {
  const match = /filename="([^"]+)"/.exec(disposition ?? "");
  return match?.[1] ?? "mailwise-export.json";
}

/**
 * POST /api/privacy/export answers a JSON attachment: read it whole (a cut-short stream fails to
 * parse and reports a failure, not a broken file), then hand it to the browser as a download.
 */
export function useExportData() {
  return useMutation({
    mutationFn: async () => {
      const token = readSessionToken();
      const res = await fetch("/api/privacy/export", {
        method: "POST",
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        credentials: "include",
      });
      if (!res.ok) throw await responseError(res);
      const text = await res.text();
      JSON.parse(text);
      const name = fileNameOf(res.headers.get("content-disposition"));
      const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return name;
    },
    onSuccess: (name) => toast({ title: "Data Export Complete", description: `Saved as ${name}.` }),
    onError: () => toast({ title: "Export Failed", description: TRY_AGAIN, variant: "destructive" }),
  });
}

export function formatDeletionDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });
}

/** Immediate deletion signs the person out; scheduled deletion shows the date it will happen. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: (immediate: boolean) =>
      apiRequest<PrivacyDeleteResponse>("POST", "/api/privacy/delete", { immediate }),
    onSuccess: (answer) => {
      if (answer.deleted) {
        toast({ title: "Account Deleted", description: "Your account and data have been removed." });
        clearSessionToken();
        queryClient.clear();
        navigate("/login", { replace: true });
        return;
      }
      void queryClient.invalidateQueries({ queryKey: privacyKeys.settings });
      toast({
        title: "Deletion Scheduled",
        description: answer.scheduledFor
          ? `Your account will be deleted on ${formatDeletionDate(answer.scheduledFor)}. You can cancel until then.`
          : undefined,
      });
    },
    onError: () => toast({ title: "Deletion Failed", description: TRY_AGAIN, variant: "destructive" }),
  });
}

export function useCancelDeletion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<PrivacySettings>("POST", "/api/privacy/delete/cancel"),
    onSuccess: (settings) => queryClient.setQueryData(privacyKeys.settings, settings),
    onError: () => toast({ title: "Update Failed", description: TRY_AGAIN, variant: "destructive" }),
  });
}
