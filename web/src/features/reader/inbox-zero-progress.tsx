/** Where the open email is in the Inbox Zero queue; index is 0-based. */
export interface ReaderQueue {
  index: number;
  total: number;
}

/** Spec section 2: only when the queue has more than one email: 'N of M', 'X emails remaining'. */
export function InboxZeroProgress({ queue }: { queue: ReaderQueue }) {
  const { total } = queue;
  if (total <= 1) return null;
  const position = Math.min(Math.max(queue.index, 0), total - 1) + 1;
  const remaining = total - position;
  const percent = Math.round((position / total) * 100);
  return (
    <div className="mb-3">
      <div className="flex items-baseline justify-between gap-3 text-xs text-slate-600">
        <span className="font-semibold text-slate-800">Inbox Zero Progress</span>
        <span>
          {position} of {total}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Inbox Zero Progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className="h-full rounded-full bg-brand-600 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-slate-600">{remaining} emails remaining</p>
    </div>
  );
}
