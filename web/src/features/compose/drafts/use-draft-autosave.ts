import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ComposeAttachmentRef } from "../../../../../contract/compose.ts";
import type { SaveDraftRequest } from "../../../../../contract/drafts.ts";
import { ApiError } from "../../../lib/api.ts";
import { type RefSwap, savedSwaps, swapRefs } from "../attachments/draft-refs.ts";
import { draftKeys, saveDraft } from "./drafts-api.ts";

/** Issue 36: compose saves to the provider's Drafts about two seconds after typing stops. */
export const AUTOSAVE_DELAY_MS = 2_000;

export type DraftContent = Omit<SaveDraftRequest, "draftId">;
export type AutosaveStatus = "idle" | "saving" | "saved" | "error";

function isEmpty(c: DraftContent): boolean {
  return (
    [c.to, c.cc, c.bcc, c.subject, c.body].every((v) => (v ?? "").trim() === "") &&
    (c.attachments ?? []).length === 0
  );
}

/** Compose's files as the autosave reads and updates them (use-compose-attachments.ts). */
export interface DraftFilesAccess {
  /** The ready files' refs now. */
  currentRefs(): ComposeAttachmentRef[];
  /** A save put them on the draft: they are the draft's files from now on. */
  replaceRefs(swaps: readonly RefSwap[]): void;
}

const keyOf = (c: DraftContent) => JSON.stringify(c);

/**
 * Autosave for one compose: debounced, one request in flight at a time (saves queue behind each
 * other and skip when nothing changed since the last one), keeping the draft id each save
 * answers. `flush` saves now (closing); `stop` ends autosaving and tells the draft id (sending);
 * `resume` starts again (a send that failed).
 */
export function useDraftAutosave(
  content: DraftContent,
  initialDraftId: string | null,
  files?: DraftFilesAccess,
) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<AutosaveStatus>(initialDraftId ? "saved" : "idle");
  const [error, setError] = useState<string | null>(null);
  const draftId = useRef<string | null>(initialDraftId);
  const latest = useRef(content);
  latest.current = content;
  // A reopened draft is saved as it is: only a change makes a request.
  const savedKey = useRef<string | null>(initialDraftId ? keyOf(content) : null);
  const chain = useRef<Promise<boolean>>(Promise.resolve(true));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stopped = useRef(false);
  const lastError = useRef<string | null>(null);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const filesAccess = useRef(files);
  filesAccess.current = files;
  const saveOnce = useCallback(async (): Promise<boolean> => {
    // The files as they are now: a save queued behind another names what that one put on the draft.
    const refs = filesAccess.current?.currentRefs();
    const body = refs ? { ...latest.current, attachments: refs } : latest.current;
    const key = keyOf(body);
    if (key === savedKey.current || isEmpty(body)) return true;
    if (mounted.current) setStatus("saving");
    try {
      const saved = await saveDraft({ ...body, ...(draftId.current ? { draftId: draftId.current } : {}) });
      draftId.current = saved.draftId;
      savedKey.current = key;
      if (refs && saved.attachments) {
        const swaps = savedSwaps(refs, saved.attachments);
        filesAccess.current?.replaceRefs(swaps);
        // What the form will hold next render is what was saved: no second save for the swap.
        savedKey.current = keyOf({
          ...body,
          attachments: swapRefs(
            refs.map((ref) => ({ ref })),
            swaps,
          ).map((f) => f.ref),
        });
      }
      lastError.current = null;
      if (mounted.current) {
        setStatus("saved");
        setError(null);
      }
      void queryClient.invalidateQueries({ queryKey: draftKeys.list() });
      return true;
    } catch (err) {
      lastError.current =
        err instanceof ApiError && err.message ? err.message : "The draft could not be saved.";
      if (mounted.current) {
        setStatus("error");
        setError(lastError.current);
      }
      return false;
    }
  }, [queryClient]);

  /** Queued behind the save in flight, so there is never more than one request. */
  const save = useCallback((): Promise<boolean> => {
    chain.current = chain.current.then(saveOnce, saveOnce);
    return chain.current;
  }, [saveOnce]);

  const key = keyOf(content);
  useEffect(() => {
    if (stopped.current || key === savedKey.current) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer.current);
  }, [key, save]);

  return {
    status,
    error,
    /** Whether the form holds anything worth keeping. */
    hasContent: !isEmpty(content),
    get draftId() {
      return draftId.current;
    },
    /** Why the last save failed, until one succeeds. */
    get lastError() {
      return lastError.current;
    },
    /** Saves what is typed now; false when the provider refused or did not answer. */
    flush: (): Promise<boolean> => {
      clearTimeout(timer.current);
      return save();
    },
    /** No more saves; waits for one in flight and answers the draft id to send with. */
    stop: async (): Promise<string | null> => {
      stopped.current = true;
      clearTimeout(timer.current);
      await chain.current;
      return draftId.current;
    },
    resume: () => {
      stopped.current = false;
    },
    /** The mail went out and the server removed its draft: the Drafts list is stale. */
    sent: () => {
      void queryClient.invalidateQueries({ queryKey: draftKeys.list() });
    },
  };
}
