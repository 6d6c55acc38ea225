import { AlertDialog } from "radix-ui";
import { AlertDialogRoot } from "../../components/ui/dialog-root.tsx";
import { useSession } from "../../lib/session.tsx";
import { type MailProvider, PROVIDER_NAMES } from "../auth/providers.ts";
import { linkQuestion, providerAccount } from "./link-texts.ts";

const btn =
  "inline-flex items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

interface Props {
  /** The provider about to be linked, or null when the dialog is closed. */
  provider: MailProvider | null;
  onCancel: () => void;
  onConfirm: (provider: MailProvider) => void;
}

/**
 * Names the signed-in person before a mailbox is linked to them. A page someone else signed this
 * browser into (session fixation) would otherwise link the victim's mailbox to a stranger's
 * Mailwise user without a word; here the stranger's name is on screen first.
 */
export function LinkConfirmDialog({ provider, onCancel, onConfirm }: Props) {
  const session = useSession();
  const user = session.user;
  const name = provider ? PROVIDER_NAMES[provider] : "";
  return (
    <AlertDialogRoot
      open={provider !== null}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">
            {provider ? linkQuestion(provider) : null}
          </AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-slate-600">
              <p>
                You are signed in as{" "}
                <strong className="font-semibold break-all text-slate-900">
                  {user ? `${user.displayName} (${user.email})` : "…"}
                </strong>
                .
              </p>
              <p>
                Link {provider ? providerAccount(provider) : ""} to this Mailwise account? Whoever is signed
                in here will be able to read its mail.
              </p>
            </div>
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel
              className={`${btn} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}
            >
              Cancel
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className={`${btn} bg-brand-600 text-white hover:bg-brand-700 disabled:opacity-60`}
              disabled={!user}
              onClick={() => {
                if (provider) onConfirm(provider);
              }}
            >
              Link {name} account
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialogRoot>
  );
}
