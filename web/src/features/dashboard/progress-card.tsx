import { Progress } from "radix-ui";
import { inboxZeroProgress, useEmailStats } from "../../lib/mail-queries.ts";
import { formatCount } from "../inbox/format.ts";

/** Spec section 9: the progress bar's maximum. */
const PROGRESS_MAX = 100;

/** Progress to Inbox Zero: 100 minus unread/total*100, floored at 0; 100% only at 0 unread. */
export function ProgressCard() {
  const { data: stats, isPending, isError } = useEmailStats();
  const value = inboxZeroProgress(stats);
  // No figures (offline, or the read failed): say nothing rather than a made-up 100%.
  const unknown = !stats && isError;
  return (
    <section
      aria-labelledby="progress-title"
      className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="progress-title" className="font-semibold text-slate-900">
          Progress to Inbox Zero
        </h2>
        <span className="text-2xl font-bold text-brand-700" data-testid="inbox-zero-progress">
          {isPending ? "…" : unknown ? "—" : `${value}%`}
        </span>
      </div>
      <Progress.Root
        value={isPending || unknown ? null : value}
        max={PROGRESS_MAX}
        aria-label="Progress to Inbox Zero"
        className="mt-3 h-2.5 overflow-hidden rounded-full bg-slate-100"
      >
        <Progress.Indicator
          className="h-full bg-brand-600 transition-[width] duration-300"
          style={{ width: `${isPending || unknown ? 0 : value}%` }}
        />
      </Progress.Root>
      {stats ? (
        <p className="mt-2 text-sm text-slate-600">
          {formatCount(stats.unreadCount)} unread of {formatCount(stats.totalEmails)} emails
        </p>
      ) : null}
    </section>
  );
}
