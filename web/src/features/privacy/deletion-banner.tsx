import { BTN_SECONDARY } from "../reader/dialog-classes.ts";
import { formatDeletionDate, useCancelDeletion, usePrivacySettings } from "./privacy-api.ts";

/** Shown on the dashboard while a deletion is scheduled: its date and a Cancel button. */
export function DeletionBanner() {
  const settings = usePrivacySettings();
  const cancel = useCancelDeletion();
  const at = settings.data?.deletionScheduledFor;
  if (!at) return null;
  return (
    <section
      aria-label="Scheduled account deletion"
      className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between"
    >
      <p>
        Your account and all its data will be deleted on <strong>{formatDeletionDate(at)}</strong>.
      </p>
      <button
        type="button"
        className={`${BTN_SECONDARY} shrink-0`}
        disabled={cancel.isPending}
        onClick={() => cancel.mutate()}
      >
        Cancel
      </button>
    </section>
  );
}
