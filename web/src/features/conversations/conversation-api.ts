/**
 * Conversations on the client (issue 35, contract/conversations.ts): the "Conversation view"
 * setting, one conversation with every message, and the actions that act on a whole
 * conversation (archive, delete, read, unread), applied to every cached copy at once and put
 * back when the server refuses.
 */
import {
  type InfiniteData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useMemo } from "react";
import { DEFAULT_SEND_DELAY } from "../../../../contract/compose.ts";
import type {
  Conversation,
  ConversationListItem,
  ConversationPatch,
  ConversationSummary,
  MailSettings,
} from "../../../../contract/conversations.ts";
import type { Email, EmailListResponse } from "../../../../contract/mail.ts";
import { toast } from "../../components/ui/toast-store.ts";
import { apiRequest } from "../../lib/api.ts";
import { failureToast } from "../../lib/connectivity.ts";
import { ACTION_ITEMS_KEY, applyEmailChange, emailKeys, STATS_KEY } from "../../lib/mail-queries.ts";

export const MAIL_SETTINGS_KEY = ["/api/settings/mail"] as const;
export const conversationKey = (id: string) => ["/api/conversations", id] as const;

/** While the provider has not confirmed a change to one of its messages, the conversation is read again this often. */
export const CONVERSATION_PENDING_RECHECK_MS = 2_000;

// The last answer, so the first list after a reload asks for the right view at once instead of
// waiting for the setting (or asking twice). The server's answer always wins.
const VIEW_HINT_KEY = "mailwise:conversationView";

function readHint(): boolean {
  try {
    return localStorage.getItem(VIEW_HINT_KEY) !== "off";
  } catch {
    return true;
  }
}

function writeHint(on: boolean): void {
  try {
    localStorage.setItem(VIEW_HINT_KEY, on ? "on" : "off");
  } catch {
    // Storage refused (private mode): the setting still comes from the server.
  }
}

/** GET /api/settings/mail. */
export function useMailSettings() {
  return useQuery<MailSettings>({
    queryKey: MAIL_SETTINGS_KEY,
    queryFn: async ({ signal }) => {
      const settings = await apiRequest<MailSettings>("GET", MAIL_SETTINGS_KEY[0], undefined, { signal });
      writeHint(settings.conversationView);
      return settings;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Whether lists show one row per conversation: the stored setting, on by default. */
export function useConversationView(): boolean {
  const settings = useMailSettings();
  return settings.data?.conversationView ?? readHint();
}

/** PATCH /api/settings/mail; the switch shows the choice at once and goes back if the server refuses. */
export function useUpdateMailSettings() {
  const queryClient = useQueryClient();
  return useMutation<MailSettings, Error, Partial<MailSettings>, { previous: MailSettings | undefined }>({
    mutationFn: (change) => apiRequest<MailSettings>("PATCH", MAIL_SETTINGS_KEY[0], change),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: MAIL_SETTINGS_KEY });
      const previous = queryClient.getQueryData<MailSettings>(MAIL_SETTINGS_KEY);
      const next = {
        conversationView: previous?.conversationView ?? readHint(),
        sendDelaySeconds: previous?.sendDelaySeconds ?? DEFAULT_SEND_DELAY,
        ...change,
      };
      queryClient.setQueryData<MailSettings>(MAIL_SETTINGS_KEY, next);
      writeHint(next.conversationView);
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context?.previous) {
        queryClient.setQueryData(MAIL_SETTINGS_KEY, context.previous);
        writeHint(context.previous.conversationView);
      }
      toast({ title: "Error", description: "Failed to save the setting", variant: "destructive" });
    },
    onSuccess: (settings) => {
      queryClient.setQueryData(MAIL_SETTINGS_KEY, settings);
      writeHint(settings.conversationView);
    },
  });
}

/** The conversation a list row stands for, when the list was asked for conversations. */
export function rowConversation(email: Email): ConversationSummary | null {
  return "conversation" in email ? (email as ConversationListItem).conversation : null;
}

/** How many messages a cached list row says the conversation holds (0 when no row of it is cached). */
export function cachedConversationCount(queryClient: QueryClient, conversationId: string): number {
  for (const [, data] of queryClient.getQueriesData<EmailPages>({ queryKey: emailKeys.lists }))
    for (const page of data?.pages ?? [])
      for (const e of page.emails)
        if (e.conversationId === conversationId) {
          const summary = rowConversation(e);
          if (summary) return summary.count;
        }
  return 0;
}

/** GET /api/conversations/:id: every message, oldest first, with bodies. */
export function useConversation(conversationId: string | null) {
  return useQuery<Conversation>({
    queryKey: conversationKey(conversationId ?? ""),
    queryFn: ({ signal }) =>
      apiRequest<Conversation>(
        "GET",
        `/api/conversations/${encodeURIComponent(conversationId ?? "")}`,
        undefined,
        { signal },
      ),
    enabled: conversationId !== null,
    refetchInterval: (query) =>
      query.state.data?.messages.some((m) => m.pending) ? CONVERSATION_PENDING_RECHECK_MS : false,
  });
}

type EmailPages = InfiniteData<EmailListResponse, string | null>;
type Snapshot = Array<[readonly unknown[], unknown]>;

/** A change to a whole conversation: read state for every message, or leaving the inbox. */
export type ConversationChange = { isRead: boolean } | { leaves: true };

/**
 * Applies a conversation change to the cached lists (rows of that conversation, in either view),
 * the conversation itself and the messages' details; returns what was there for a rollback.
 */
export function applyConversationChange(
  queryClient: QueryClient,
  conversationId: string,
  change: ConversationChange,
): Snapshot {
  // Each message of it the cache knows, with its read state.
  const known = new Map<string, boolean>();
  const conversation = queryClient.getQueryData<Conversation>(conversationKey(conversationId));
  for (const m of conversation?.messages ?? []) known.set(m.id, m.isRead);
  for (const [, data] of queryClient.getQueriesData<EmailPages>({ queryKey: emailKeys.lists }))
    for (const page of data?.pages ?? [])
      for (const e of page.emails) if (e.conversationId === conversationId) known.set(e.id, e.isRead);
  // Lists, details and the per-message figures as a change to these messages; a read change
  // counts only the messages whose state it changes.
  const ids = [...known]
    .filter(([, isRead]) => "leaves" in change || isRead !== change.isRead)
    .map(([id]) => id);
  const snapshot: Snapshot = applyEmailChange(
    queryClient,
    ids,
    "leaves" in change ? { isArchived: true } : { isRead: change.isRead },
  );
  if ("isRead" in change) {
    for (const [key, data] of queryClient.getQueriesData<EmailPages>({ queryKey: emailKeys.lists })) {
      if (!data) continue;
      if (!data.pages.some((p) => p.emails.some((e) => e.conversationId === conversationId))) continue;
      snapshot.push([key, data]);
      queryClient.setQueryData<EmailPages>(key, {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          emails: page.emails.map((e) => {
            const summary = rowConversation(e);
            if (e.conversationId !== conversationId || !summary) return e;
            return { ...e, conversation: { ...summary, unread: !change.isRead } };
          }),
        })),
      });
    }
  }
  if (conversation) {
    snapshot.push([conversationKey(conversationId), conversation]);
    if ("isRead" in change)
      queryClient.setQueryData<Conversation>(conversationKey(conversationId), {
        ...conversation,
        messages: conversation.messages.map((m) => ({ ...m, isRead: change.isRead })),
      });
  }
  return snapshot;
}

/** Applies a change to one message inside its cached conversation (star, flag, read). */
export function applyMessageChange(
  queryClient: QueryClient,
  conversationId: string,
  messageId: string,
  change: Partial<Pick<Email, "isRead" | "isStarred" | "isFlagged">>,
): Snapshot {
  const key = conversationKey(conversationId);
  const conversation = queryClient.getQueryData<Conversation>(key);
  if (!conversation) return [];
  queryClient.setQueryData<Conversation>(key, {
    ...conversation,
    messages: conversation.messages.map((m) => (m.id === messageId ? { ...m, ...change } : m)),
  });
  return [[key, conversation]];
}

type ConversationAction = "archive" | "delete" | "read" | "unread";

interface ActionInput {
  conversationId: string;
  action: ConversationAction;
}

const FAILURES: Record<ConversationAction, string> = {
  archive: "Failed to archive the conversation",
  delete: "Failed to delete the conversation",
  read: "Failed to mark the conversation as read",
  unread: "Failed to mark the conversation as unread",
};

/** After a change the provider did not confirm in time, the lists are read again this much later. */
const PENDING_LIST_RECHECK_MS = 6_000;

function send({ conversationId, action }: ActionInput): Promise<Conversation> {
  const path = `/api/conversations/${encodeURIComponent(conversationId)}`;
  if (action === "delete") return apiRequest<Conversation>("DELETE", path);
  const patch: ConversationPatch =
    action === "archive" ? { isArchived: true } : { isRead: action === "read" };
  return apiRequest<Conversation>("PATCH", path, patch);
}

/**
 * Archive, delete, mark read and mark unread on every message of a conversation (star, flag and
 * reply stay per message: useEmailActions). Each call resolves to whether the server accepted it.
 */
export function useConversationActions() {
  const queryClient = useQueryClient();
  const { mutateAsync } = useMutation<Conversation, Error, ActionInput, { snapshot: Snapshot }>({
    mutationFn: send,
    onMutate: async ({ conversationId, action }) => {
      await queryClient.cancelQueries({ queryKey: emailKeys.lists });
      await queryClient.cancelQueries({ queryKey: conversationKey(conversationId) });
      const change: ConversationChange =
        action === "archive" || action === "delete" ? { leaves: true } : { isRead: action === "read" };
      return { snapshot: applyConversationChange(queryClient, conversationId, change) };
    },
    onError: (error, { action }, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
      toast(failureToast(error, FAILURES[action]));
    },
    onSuccess: (answer, { conversationId, action }) => {
      if (action === "read" || action === "unread")
        queryClient.setQueryData(conversationKey(conversationId), answer);
      if (answer.messages.some((m) => m.pending))
        setTimeout(() => {
          void queryClient.invalidateQueries({ queryKey: emailKeys.lists });
          void queryClient.invalidateQueries({ queryKey: STATS_KEY });
        }, PENDING_LIST_RECHECK_MS);
    },
    onSettled: (_answer, _error, { conversationId }) => {
      void queryClient.invalidateQueries({ queryKey: conversationKey(conversationId) });
      // Row summaries (unread, the newest message) are the server's to compute.
      void queryClient.invalidateQueries({ queryKey: emailKeys.lists });
      void queryClient.invalidateQueries({ queryKey: STATS_KEY });
      void queryClient.invalidateQueries({ queryKey: ACTION_ITEMS_KEY });
    },
  });
  return useMemo(() => {
    const run = (conversationId: string, action: ConversationAction) =>
      mutateAsync({ conversationId, action }).then(
        () => true,
        () => false,
      );
    return {
      archive: (conversationId: string) => run(conversationId, "archive"),
      remove: (conversationId: string) => run(conversationId, "delete"),
      setRead: (conversationId: string, isRead: boolean) => run(conversationId, isRead ? "read" : "unread"),
    };
  }, [mutateAsync]);
}

export type ConversationActions = ReturnType<typeof useConversationActions>;
