import { AlertDialog } from "radix-ui";
import { useState } from "react";
import { AlertDialogRoot } from "../../components/ui/dialog-root.tsx";
import { removeFromQueue } from "./queue-events.ts";
import { setOffer, useSmartArchiveOffer } from "./smart-archive-store.ts";
import { useEmailActions } from "./use-email-actions.ts";

const btn =
  "inline-flex items-center justify-center rounded-lg px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60";

/** Spec section 4: offered on the 2nd archive from a sender that still has mail in the inbox. */
export function SmartArchiveDialog() {
  const offer = useSmartArchiveOffer();
  const actions = useEmailActions();
  const [busy, setBusy] = useState(false);
  const count = offer?.emailIds.length ?? 0;

  async function archiveAll() {
    if (!offer) return;
    setBusy(true);
    removeFromQueue(offer.emailIds);
    setOffer(null);
    await actions.archiveMany(offer.emailIds);
    setBusy(false);
  }

  return (
    <AlertDialogRoot
      open={offer !== null}
      onOpenChange={(open) => {
        if (!open) setOffer(null);
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[60] bg-slate-900/40" />
        <AlertDialog.Content className="fixed inset-x-0 bottom-0 z-[60] w-full rounded-t-2xl bg-white p-6 shadow-xl focus:outline-none sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:max-w-md sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">
            Smart Archive Suggestion
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600">
            You archived two emails from{" "}
            <span className="font-medium text-slate-900">{offer?.senderName}</span> this session. Archive the
            other {count} {count === 1 ? "email" : "emails"} from this sender too?
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel
              className={`${btn} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}
            >
              Not now
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className={`${btn} bg-brand-600 text-white hover:bg-brand-700`}
              disabled={busy}
              onClick={() => void archiveAll()}
            >
              Archive All
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialogRoot>
  );
}
