import { BUCKET_TITLES, BUCKETS, type Bucket } from "../../../../contract/buckets.ts";
import { useBucketEmails } from "../../lib/mail-queries.ts";
import { formatCount } from "../inbox/format.ts";

/** The Email Buckets panel: the AI assistant card and the six buckets with their counts. */
export function BucketsPanelBody({
  onOpenBucket,
  onConfigureAssistant,
}: {
  onOpenBucket: (bucket: Bucket) => void;
  onConfigureAssistant: () => void;
}) {
  return (
    <div className="space-y-4">
      <section
        aria-labelledby="ai-assistant-title"
        className="rounded-xl border border-brand-100 bg-brand-50 p-4"
      >
        <h3 id="ai-assistant-title" className="font-semibold text-brand-900">
          AI assistant
        </h3>
        <p className="mt-1 text-sm text-slate-700">
          Mailwise sorts new mail into these buckets as it arrives. A personal assistant that drafts replies
          in your voice is on its way.
        </p>
        <button
          type="button"
          onClick={onConfigureAssistant}
          className="mt-3 rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          Configure assistant
        </button>
      </section>
      <ul className="grid gap-2" aria-label="Buckets">
        {BUCKETS.map((bucket) => (
          <BucketLink key={bucket} bucket={bucket} onOpen={() => onOpenBucket(bucket)} />
        ))}
      </ul>
    </div>
  );
}

function BucketLink({ bucket, onOpen }: { bucket: Bucket; onOpen: () => void }) {
  const { emails, isPending } = useBucketEmails(bucket);
  const unread = emails.filter((e) => !e.isRead).length;
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        className="flex w-full items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <span className="font-medium text-slate-900">{BUCKET_TITLES[bucket]}</span>
        <span className="text-slate-600">
          {isPending ? "…" : `${formatCount(emails.length)} · ${formatCount(unread)} unread`}
        </span>
      </button>
    </li>
  );
}
