import { BUCKET_TITLES, BUCKETS, type Bucket } from "../../../../contract/buckets.ts";
import { useBucketCounts } from "../../lib/mail-queries.ts";
import { AssistantCard } from "../ai/assistant-card.tsx";
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
      <AssistantCard onConfigure={onConfigureAssistant} />
      <ul className="grid gap-2" aria-label="Buckets">
        {BUCKETS.map((bucket) => (
          <BucketLink key={bucket} bucket={bucket} onOpen={() => onOpenBucket(bucket)} />
        ))}
      </ul>
    </div>
  );
}

function BucketLink({ bucket, onOpen }: { bucket: Bucket; onOpen: () => void }) {
  const counts = useBucketCounts(bucket);
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        className="flex w-full items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <span className="font-medium text-slate-900">{BUCKET_TITLES[bucket]}</span>
        <span className="text-slate-600">
          {counts === null ? "…" : `${formatCount(counts.total)} · ${formatCount(counts.unread)} unread`}
        </span>
      </button>
    </li>
  );
}
