import type { MailAccount } from "../../../../contract/auth.ts";
import type { SyncStatus } from "../../../../contract/mail.ts";
import { isSyncing } from "../../lib/mail-queries.ts";
import { formatCount } from "../inbox/format.ts";

/** "Syncing 1,234 of 6,046" while an account backfills, and a Reconnect prompt when one needs it. */
export function SyncBanner({
  statuses,
  accounts,
  onReconnect,
}: {
  statuses: SyncStatus[];
  accounts: MailAccount[];
  onReconnect: () => void;
}) {
  const emailOf = (id: string) => accounts.find((a) => a.id === id)?.email ?? "An account";
  const syncing = statuses.filter(isSyncing);
  const reauthIds = new Set([
    ...statuses.filter((s) => s.status === "reauth_required").map((s) => s.accountId),
    ...accounts.filter((a) => a.status === "reauth_required").map((a) => a.id),
  ]);
  return (
    <>
      <div role="status" aria-live="polite" className="contents">
        {syncing.map((s) => (
          <p
            key={s.accountId}
            className="flex flex-wrap items-center gap-2 rounded-xl border border-brand-100 bg-brand-50 px-4 py-2 text-sm text-brand-900"
            data-testid="sync-progress"
          >
            <span
              className="h-3 w-3 animate-spin rounded-full border-2 border-brand-100 border-t-brand-600"
              aria-hidden="true"
            />
            <span className="font-medium">
              {s.totalEstimate !== null && s.totalEstimate > 0
                ? // Recent archived mail is in the pass too, so the count may pass the inbox's total.
                  `Syncing ${formatCount(s.syncedCount)} of ${formatCount(Math.max(s.totalEstimate, s.syncedCount))}`
                : `Syncing ${formatCount(s.syncedCount)}`}
            </span>
            <span className="truncate text-brand-700">{emailOf(s.accountId)}</span>
          </p>
        ))}
      </div>
      {[...reauthIds].map((id) => (
        <div
          key={id}
          role="alert"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
        >
          <span>
            <span className="font-medium">{emailOf(id)}</span> needs you to sign in again before Mailwise can
            read new mail.
          </span>
          <button
            type="button"
            onClick={onReconnect}
            className="rounded-lg bg-amber-600 px-3 py-1.5 font-medium text-white hover:bg-amber-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-700"
          >
            Reconnect
          </button>
        </div>
      ))}
    </>
  );
}
