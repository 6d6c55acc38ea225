import {
  type InfiniteData,
  type QueryClient,
  type QueryKey,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { useMemo } from "react";
import type { Email, EmailListResponse, UnsubscribeStatus } from "../../../../contract/mail.ts";
import { toast } from "../../components/ui/toast-store.ts";
import { ApiError, apiRequest } from "../../lib/api.ts";
import { cancelReadsFor, readAgain } from "../../lib/cancel-reads.ts";
import { failureToast } from "../../lib/connectivity.ts";
import {
  ACTION_ITEMS_KEY,
  applyEmailChange,
  type EmailChange,
  emailKeys,
  isVisible,
  REFRESH_EMAILS_EVENT,
  STATS_KEY,
} from "../../lib/mail-queries.ts";
import { removeFromQueue } from "./queue-events.ts";
import { countArchive, SMART_ARCHIVE_THRESHOLD, setOffer } from "./smart-archive-store.ts";
import {
  addBackground,
  isBackgroundUnsubscribing,
  removeBackground,
  storeStatus,
  watchBackground,
} from "./unsubscribe-store.ts";

/** Spec section 9: the list is refreshed about 2 s after an unsubscribe request. */
export const UNSUBSCRIBE_REFRESH_MS = 2000;

type EmailPages = InfiniteData<EmailListResponse, string | null>;
type Snapshot = ReturnType<typeof applyEmailChange>;
type Transport = "single" | "bulk";

interface ChangeInput {
  ids: string[];
  change: EmailChange;
  /** Toast description when the server refuses. */
  failure: string;
  /** bulk: POST /api/emails/bulk-action (archive and markRead only); single: PATCH or DELETE each. */
  transport: Transport;
}

/** After a change the provider did not confirm in time, the lists are read again this much later. */
export const PENDING_LIST_RECHECK_MS = 6_000;

/** Sends the change; resolves to whether any email of it is pending (no answer from the provider yet). */
async function send({ ids, change, transport }: ChangeInput): Promise<boolean> {
  if (transport === "bulk") {
    const action = change.isArchived ? "archive" : "markRead";
    const answer = await apiRequest<{ pending?: number }>("POST", "/api/emails/bulk-action", {
      action,
      emailIds: ids,
    });
    return (answer?.pending ?? 0) > 0;
  }
  const path = (id: string) => `/api/emails/${encodeURIComponent(id)}`;
  if (change.deleted) {
    const answers = await Promise.all(ids.map((id) => apiRequest<Email>("DELETE", path(id))));
    return answers.some((e) => e?.pending);
  }
  const { deleted: _deleted, ...flags } = change;
  const answers = await Promise.all(ids.map((id) => apiRequest<Email>("PATCH", path(id), flags)));
  return answers.some((e) => e?.pending);
}

/** Every cached, still visible email from this sender (lists and details). */
function cachedFromSender(queryClient: QueryClient, senderAddress: string): Email[] {
  const sender = senderAddress.toLowerCase();
  const found = new Map<string, Email>();
  for (const [, data] of queryClient.getQueriesData<EmailPages>({ queryKey: emailKeys.lists })) {
    for (const page of data?.pages ?? []) {
      for (const e of page.emails) if (e.fromAddress.toLowerCase() === sender) found.set(e.id, e);
    }
  }
  return [...found.values()].filter(isVisible);
}

/** Other unarchived emails from the sender: the cache, completed by a search on the server. */
async function otherEmailsFrom(queryClient: QueryClient, email: Email): Promise<Email[]> {
  const sender = email.fromAddress.toLowerCase();
  const found = new Map(cachedFromSender(queryClient, sender).map((e) => [e.id, e]));
  try {
    const q = encodeURIComponent(`"${email.fromAddress}"`);
    const answer = await apiRequest<EmailListResponse>("GET", `/api/emails?q=${q}&limit=200`);
    for (const e of answer.emails) if (e.fromAddress.toLowerCase() === sender) found.set(e.id, e);
  } catch (err) {
    // The cached lists still give a useful answer.
    console.warn("Could not search the sender's other emails", err);
  }
  found.delete(email.id);
  return [...found.values()].filter(isVisible);
}

/**
 * The triage actions (archive, read, star, flag, delete, unsubscribe). Each changes every cached
 * copy at once, then asks the server (which writes back to Gmail or Outlook); a refusal puts the
 * caches back and shows an 'Error' toast. Each call resolves to whether the server accepted it.
 */
export function useEmailActions() {
  const queryClient = useQueryClient();
  const mutation = useMutation<boolean, Error, ChangeInput, { snapshot: Snapshot; firstLoads: QueryKey[] }>({
    mutationFn: send,
    onMutate: async (input) => {
      // Reads in flight would bring back the old state.
      const firstLoads = await cancelReadsFor(queryClient, emailKeys.lists);
      // The readers' first loads need no list of their own: onSettled reads every detail again.
      for (const id of input.ids) await cancelReadsFor(queryClient, emailKeys.detail(id));
      return { snapshot: applyEmailChange(queryClient, input.ids, input.change), firstLoads };
    },
    onError: (error, input, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
      toast(failureToast(error, input.failure));
    },
    onSuccess: (pending, input) => {
      if (input.transport === "bulk") void queryClient.invalidateQueries({ queryKey: emailKeys.lists });
      // The server settles it with the provider shortly, which may undo the change: show that.
      if (pending) {
        setTimeout(() => {
          void queryClient.invalidateQueries({ queryKey: emailKeys.lists });
          void queryClient.invalidateQueries({ queryKey: STATS_KEY });
        }, PENDING_LIST_RECHECK_MS);
      }
    },
    onSettled: (_data, _error, input, context) => {
      readAgain(queryClient, context?.firstLoads ?? []);
      // A list refresh that raced the request may have put the old state into the reader.
      for (const id of input.ids) void queryClient.invalidateQueries({ queryKey: emailKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: STATS_KEY });
      void queryClient.invalidateQueries({ queryKey: ACTION_ITEMS_KEY });
    },
  });
  const { mutateAsync } = mutation;

  return useMemo(() => {
    const run = (input: ChangeInput) =>
      mutateAsync(input).then(
        () => true,
        () => false,
      );

    async function suggestSmartArchive(email: Email): Promise<void> {
      const others = await otherEmailsFrom(queryClient, email);
      if (others.length === 0 || isBackgroundUnsubscribing(email.fromAddress)) return;
      setOffer({
        senderAddress: email.fromAddress,
        senderName: email.fromName || email.fromAddress,
        emailIds: others.map((e) => e.id),
      });
    }

    return {
      /**
       * Archives one email. Spec section 4: the 2nd archive from a sender may offer to archive
       * the rest; a sender being unsubscribed leaves the queue altogether.
       */
      archive(email: Email): Promise<boolean> {
        if (isBackgroundUnsubscribing(email.fromAddress)) {
          const ids = cachedFromSender(queryClient, email.fromAddress).map((e) => e.id);
          removeFromQueue([...new Set([email.id, ...ids])]);
        } else if (countArchive(email.fromAddress) === SMART_ARCHIVE_THRESHOLD) {
          void suggestSmartArchive(email);
        }
        return run({
          ids: [email.id],
          change: { isArchived: true },
          failure: "Failed to archive the email",
          transport: "single",
        });
      },
      /**
       * Undoes an archive or a delete: back to the inbox (out of the trash too) on the provider,
       * then the lists are read again to show it.
       */
      async restore(email: Pick<Email, "id">): Promise<boolean> {
        const ok = await run({
          ids: [email.id],
          change: { isArchived: false },
          failure: "Failed to move the email back to the inbox",
          transport: "single",
        });
        if (ok) void queryClient.invalidateQueries({ queryKey: emailKeys.lists });
        return ok;
      },
      setRead(email: Pick<Email, "id">, isRead: boolean): Promise<boolean> {
        return run({
          ids: [email.id],
          change: { isRead },
          failure: isRead ? "Failed to mark the email as read" : "Failed to mark the email as unread",
          transport: "single",
        });
      },
      setStarred(email: Pick<Email, "id">, isStarred: boolean): Promise<boolean> {
        return run({
          ids: [email.id],
          change: { isStarred },
          failure: isStarred ? "Failed to star the email" : "Failed to unstar the email",
          transport: "single",
        });
      },
      setFlagged(email: Pick<Email, "id">, isFlagged: boolean): Promise<boolean> {
        return run({
          ids: [email.id],
          change: { isFlagged },
          failure: isFlagged ? "Failed to flag the email" : "Failed to unflag the email",
          transport: "single",
        });
      },
      /** Moves the email to the provider's trash. */
      remove(email: Pick<Email, "id">): Promise<boolean> {
        return run({
          ids: [email.id],
          change: { deleted: true },
          failure: "Failed to delete the email",
          transport: "single",
        });
      },
      /** Bulk archive (spec section 7); only with at least one email. */
      archiveMany(ids: string[]): Promise<boolean> {
        if (ids.length === 0) return Promise.resolve(false);
        return run({
          ids,
          change: { isArchived: true },
          failure: "Failed to archive emails",
          transport: "bulk",
        });
      },
      /** Bulk mark-read (spec section 7); only with at least one email. */
      markReadMany(ids: string[]): Promise<boolean> {
        if (ids.length === 0) return Promise.resolve(false);
        return run({
          ids,
          change: { isRead: true },
          failure: "Failed to mark emails as read",
          transport: "bulk",
        });
      },
      /**
       * Asks the server to unsubscribe from the sender; the work runs in the background and the
       * lists are refreshed about 2 s later through the refreshEmails window event.
       */
      async unsubscribe(email: Pick<Email, "id" | "fromAddress" | "fromName">): Promise<boolean> {
        addBackground(email.fromAddress);
        try {
          const status = await apiRequest<UnsubscribeStatus>("POST", "/api/emails/unsubscribe", {
            emailId: email.id,
            fromAddress: email.fromAddress,
          });
          storeStatus(queryClient, status);
          toast({
            title: "Unsubscribe Processing",
            description: `Unsubscribing from ${email.fromName || email.fromAddress} in the background.`,
          });
          if (status.status === "processing") watchBackground(queryClient);
          else removeBackground(email.fromAddress);
          setTimeout(() => window.dispatchEvent(new Event(REFRESH_EMAILS_EVENT)), UNSUBSCRIBE_REFRESH_MS);
          return true;
        } catch (err) {
          removeBackground(email.fromAddress);
          const message = err instanceof ApiError && err.message ? err.message : "";
          toast({
            title: "Unsubscribe Failed",
            description: message || "Failed to initiate unsubscribe process.",
            variant: "destructive",
          });
          return false;
        }
      },
    };
  }, [mutateAsync, queryClient]);
}

export type EmailActions = ReturnType<typeof useEmailActions>;
