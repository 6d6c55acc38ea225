import { BUCKET_EMPTY_TEXTS, BUCKET_TITLES, type Bucket } from "../../../../contract/buckets.ts";
import { useBucketCounts, useEmailList } from "../../lib/mail-queries.ts";
import { useConversationView } from "../conversations/conversation-api.ts";
import { formatCount, formatListDate } from "../inbox/format.ts";
import { PaperclipMark, rowSummary } from "../inbox/row-summary.tsx";

/** Spec section 9: a bucket card shows 5 emails. */
export const BUCKET_CARD_EMAILS = 5;

interface Props {
  bucket: Bucket;
  onOpenBucket: (bucket: Bucket) => void;
  onOpenEmail: (id: string) => void;
}

/** One smart bucket: its first five emails and 'View All (N)', or the bucket's empty text. */
export function BucketCard({ bucket, onOpenBucket, onOpenEmail }: Props) {
  // Only the emails it shows; 'View All (N)' and the badge come from the shared stats call.
  const conversations = useConversationView();
  const { emails, isPending, isError } = useEmailList({
    bucket,
    limit: BUCKET_CARD_EMAILS,
    ...(conversations ? { view: "conversations" as const } : {}),
  });
  const counts = useBucketCounts(bucket);
  const title = BUCKET_TITLES[bucket];
  const headingId = `bucket-${bucket}-title`;
  const unread = counts?.unread ?? 0;
  const total = Math.max(counts?.total ?? 0, emails.length);

  return (
    <section
      aria-labelledby={headingId}
      data-bucket={bucket}
      className="flex min-w-0 flex-col rounded-2xl border border-slate-200 bg-white p-4"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold text-slate-900">
          <button
            type="button"
            onClick={() => onOpenBucket(bucket)}
            className="rounded text-left hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {title}
          </button>
        </h3>
        {unread > 0 ? (
          <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
            {formatCount(unread)}
            <span className="sr-only"> unread</span>
          </span>
        ) : null}
      </div>
      {isPending ? (
        <p className="mt-3 text-sm text-slate-500">Loading…</p>
      ) : isError && emails.length === 0 ? (
        <p className="mt-3 text-sm text-red-700">Could not load these emails.</p>
      ) : emails.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">{BUCKET_EMPTY_TEXTS[bucket]}</p>
      ) : (
        <>
          <ul className="mt-2 divide-y divide-slate-100" aria-label={`${title}: latest`}>
            {emails.slice(0, BUCKET_CARD_EMAILS).map((email) => {
              const row = rowSummary(email);
              return (
                <li key={email.id}>
                  <button
                    type="button"
                    onClick={() => onOpenEmail(email.id)}
                    className="block w-full min-w-0 rounded px-1 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                  >
                    <span className="flex items-baseline justify-between gap-2">
                      <span
                        className={`truncate text-sm ${row.unread ? "font-semibold text-slate-900" : "text-slate-700"}`}
                      >
                        {row.who}
                      </span>
                      <span className="flex shrink-0 items-center gap-1.5 text-xs text-slate-500">
                        {row.hasAttachments ? <PaperclipMark /> : null}
                        {formatListDate(email.date)}
                      </span>
                    </span>
                    <span className="block truncate text-sm text-slate-600">
                      {email.subject || "(no subject)"}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
          <button
            type="button"
            onClick={() => onOpenBucket(bucket)}
            className="mt-2 self-start rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
            aria-busy={counts === null || undefined}
          >
            View All ({formatCount(total)})
          </button>
        </>
      )}
    </section>
  );
}
