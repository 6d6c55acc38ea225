import { toast } from "../../../components/ui/toast-store.ts";
import type { useDraftAutosave } from "./use-draft-autosave.ts";

/** Issue 36's wording for closing a compose that has content. */
export const DRAFT_SAVED = "Draft saved";

/**
 * Closing compose: with content, what is typed is saved first and "Draft saved" shown; when the
 * save fails the dialog stays open with the text, and says why. Without content it just closes.
 */
export async function closeKeepingDraft(
  autosave: ReturnType<typeof useDraftAutosave>,
  close: () => void,
): Promise<void> {
  if (!autosave.hasContent) {
    close();
    return;
  }
  if (await autosave.flush()) {
    toast({ title: DRAFT_SAVED });
    close();
    return;
  }
  toast({
    title: "Draft not saved",
    description: `${autosave.lastError ?? "The draft could not be saved."} Your text is still here.`,
    variant: "destructive",
  });
}
