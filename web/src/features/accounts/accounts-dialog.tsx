import { AlertDialog, Dialog } from "radix-ui";
import { useState } from "react";
import type { MailAccount } from "../../../../contract/auth.ts";
import { AlertDialogRoot, DialogRoot } from "../../components/ui/dialog-root.tsx";
import { AiUsageSection } from "../ai/ai-usage-section.tsx";
import { ProviderIcon } from "../auth/provider-icons.tsx";
import { type MailProvider, PROVIDER_NAMES } from "../auth/providers.ts";
import { usePopupSignIn } from "../auth/use-popup-sign-in.ts";
import { UndoSendSetting } from "../compose/undo-send-setting.tsx";
import { ConversationViewSetting } from "../conversations/conversation-view-setting.tsx";
import { LeaderboardPrivacySetting } from "../game/leaderboard-dialog.tsx";
import { NotificationsSetting } from "../notifications/notifications-setting.tsx";
import { SignatureEditor } from "../signatures/signature-editor.tsx";
import { accountStatusLabel } from "./account-status.ts";
import { LinkConfirmDialog } from "./link-confirm-dialog.tsx";
import { useAccounts, useDisconnectAccount, useRefreshAccounts } from "./use-accounts.ts";

const btn =
  "inline-flex items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60";
const btnSecondary = `${btn} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;
const btnPrimary = `${btn} bg-brand-600 text-white hover:bg-brand-700`;
const btnDanger = `${btn} bg-red-600 text-white hover:bg-red-700`;

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Settings > Connected accounts: list, add (confirmed, then the popup flow; the server links by our
 * Bearer token), disconnect.
 */
export function AccountsDialog({ open, onOpenChange }: Props) {
  const { accounts, isLoading } = useAccounts();
  const refresh = useRefreshAccounts();
  // Linking: the request carries our Bearer token; a 401 here means the session is gone.
  const connect = usePopupSignIn(refresh, "throw");
  // Every link is confirmed first, naming who is signed in (LinkConfirmDialog says why).
  const [confirming, setConfirming] = useState<MailProvider | null>(null);

  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-lg font-semibold text-slate-900">Connected accounts</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-slate-600">
                The Gmail and Outlook mailboxes Mailwise reads for you.
              </Dialog.Description>
            </div>
            <Dialog.Close
              className="rounded px-2 text-xl leading-none text-slate-500 hover:text-slate-800"
              aria-label="Close"
            >
              ×
            </Dialog.Close>
          </div>

          {isLoading ? (
            <p className="mt-6 text-sm text-slate-500">Loading accounts…</p>
          ) : (
            <ul
              className="mt-5 divide-y divide-slate-100 rounded-lg border border-slate-200"
              aria-label="Accounts"
            >
              {accounts.map((account) => (
                <AccountRow
                  key={account.id}
                  account={account}
                  reconnecting={connect.connecting !== null}
                  onReconnect={() => setConfirming(account.provider)}
                />
              ))}
              {accounts.length === 0 ? (
                <li className="p-4 text-sm text-slate-500">No accounts connected.</li>
              ) : null}
            </ul>
          )}

          <div className="mt-5 flex flex-wrap gap-2">
            {(["gmail", "outlook"] as const satisfies readonly MailProvider[]).map((provider) => (
              <button
                key={provider}
                type="button"
                className={btnPrimary}
                disabled={connect.connecting !== null}
                aria-busy={connect.connecting === provider || undefined}
                onClick={() => setConfirming(provider)}
              >
                <ProviderIcon provider={provider} className="h-4 w-4 rounded-sm bg-white" />
                Add {PROVIDER_NAMES[provider]} account
              </button>
            ))}
          </div>
          <LinkConfirmDialog
            provider={confirming}
            onCancel={() => setConfirming(null)}
            onConfirm={(provider) => void connect.start(provider)}
          />
          {connect.connecting ? (
            <p className="mt-3 text-sm text-slate-600" role="status">
              Finish signing in to {PROVIDER_NAMES[connect.connecting]} in the pop-up window.
            </p>
          ) : null}
          {connect.error ? (
            <p role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
              {connect.error}
            </p>
          ) : null}
          <AiUsageSection />
          {open ? <ConversationViewSetting /> : null}
          {open ? <UndoSendSetting /> : null}
          {open ? <NotificationsSetting /> : null}
          {open ? <LeaderboardPrivacySetting /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

function AccountRow({
  account,
  reconnecting,
  onReconnect,
}: {
  account: MailAccount;
  reconnecting: boolean;
  onReconnect: () => void;
}) {
  const needsReconnect = account.status === "reauth_required";
  return (
    <li className="flex flex-wrap items-center gap-3 p-3" aria-label={account.email}>
      <ProviderIcon provider={account.provider} className="h-6 w-6 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-slate-900">{account.email}</p>
        <p className="text-xs text-slate-500">
          {PROVIDER_NAMES[account.provider]} ·{" "}
          <span className={needsReconnect ? "font-medium text-amber-700" : "text-green-700"}>
            {accountStatusLabel(account.status)}
          </span>
        </p>
      </div>
      <div className="flex gap-2">
        {needsReconnect ? (
          <button type="button" className={btnSecondary} disabled={reconnecting} onClick={onReconnect}>
            Reconnect
          </button>
        ) : null}
        <DisconnectButton account={account} />
      </div>
      <SignatureEditor account={account} />
    </li>
  );
}

function DisconnectButton({ account }: { account: MailAccount }) {
  const [open, setOpen] = useState(false);
  const disconnect = useDisconnectAccount();
  return (
    <AlertDialogRoot
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) disconnect.reset();
      }}
    >
      <AlertDialog.Trigger className={btnSecondary} aria-label={`Disconnect ${account.email}`}>
        Disconnect
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">
            Disconnect {account.email}?
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600">
            Mailwise will stop reading this {PROVIDER_NAMES[account.provider]} mailbox and forget its access.
            You can connect it again later.
          </AlertDialog.Description>
          {disconnect.error ? (
            <p role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
              {disconnect.error.message}
            </p>
          ) : null}
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel className={btnSecondary}>Cancel</AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that would close before the server answers. */}
            <button
              type="button"
              className={btnDanger}
              disabled={disconnect.isPending}
              onClick={() =>
                disconnect.mutate(account.id, {
                  onSuccess: () => setOpen(false),
                })
              }
            >
              Disconnect
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialogRoot>
  );
}
