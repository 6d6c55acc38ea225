import { inboxZeroProgress, useEmailStats } from "../../lib/mail-queries.ts";
import { formatCount } from "../inbox/format.ts";

/** Spec section 9: the progress bar's maximum. */
const PROGRESS_MAX = 100;

/**
 * Spec sections 2 and 9, on the real counts of GET /api/emails/stats: 'N of M' (handled of all
 * inbox mail), 'X emails remaining' (unread), the bar at 100 minus unread/total*100, at least 0.
 * Shown only when the inbox holds more than one email.
 */
export function InboxZeroProgress() {
  const { data: stats } = useEmailStats();
  if (!stats || stats.totalEmails <= 1) return null;
  const total = stats.totalEmails;
  const remaining = Math.min(Math.max(stats.unreadCount, 0), total);
  const percent = inboxZeroProgress(stats);
  return (
    <div className="mb-3" data-testid="reader-inbox-zero-progress">
      <div className="flex items-baseline justify-between gap-3 text-xs text-slate-600">
        <span className="font-semibold text-slate-800">Inbox Zero Progress</span>
        <span>
          {formatCount(total - remaining)} of {formatCount(total)}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Inbox Zero Progress"
        aria-valuemin={0}
        aria-valuemax={PROGRESS_MAX}
        aria-valuenow={percent}
        className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className="h-full rounded-full bg-brand-600 motion-safe:transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-slate-600">{formatCount(remaining)} emails remaining</p>
    </div>
  );
}
