import type { DraftSummary } from "../../../../../contract/drafts.ts";
import { DashboardCard } from "../../../components/ui/dashboard-card.tsx";
import { useDrafts } from "./drafts-api.ts";

/** How many drafts the card shows (newest first). */
export const DRAFTS_SHOWN = 8;

function recipient(draft: DraftSummary): string {
  const first = draft.to[0];
  if (!first) return "(no recipient)";
  const name = first.name && first.name !== first.address ? first.name : first.address;
  return draft.to.length > 1 ? `${name} +${draft.to.length - 1}` : name;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * Drafts of every account at the provider (issue 36), those written in Gmail or Outlook
 * included: recipient, subject and date; choosing one reopens it in compose.
 */
export function DraftsCard({ onOpenDraft }: { onOpenDraft: (id: string) => void }) {
  const { data, isError } = useDrafts();
  const drafts = data?.drafts.slice(0, DRAFTS_SHOWN) ?? [];
  return (
    <DashboardCard
      id="drafts-title"
      title="Drafts"
      count={data?.drafts.length}
      data={data}
      isError={isError}
      errorText="Could not load drafts."
    >
      {(data) => (
        <>
          {data.failedAccounts.map((a) => (
            <p key={a.accountId} className="mt-2 text-xs text-red-700">
              {a.email}: {a.message}
            </p>
          ))}
          {drafts.length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">No drafts</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100" aria-label="Drafts">
              {drafts.map((draft) => (
                <li key={draft.id}>
                  <button
                    type="button"
                    onClick={() => onOpenDraft(draft.id)}
                    className="block w-full min-w-0 rounded px-1 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                  >
                    <span className="flex items-baseline justify-between gap-2">
                      <span className="min-w-0 truncate text-sm font-medium text-slate-900">
                        {recipient(draft)}
                      </span>
                      <time dateTime={draft.updatedAt} className="shrink-0 text-xs text-slate-500">
                        {dateFormat.format(new Date(draft.updatedAt))}
                      </time>
                    </span>
                    <span className="flex justify-between gap-2 text-xs text-slate-600">
                      <span className="min-w-0 truncate">{draft.subject || "(no subject)"}</span>
                      {draft.fileCount > 0 ? (
                        <span className="shrink-0">
                          {draft.fileCount === 1 ? "1 file" : `${draft.fileCount} files`}
                        </span>
                      ) : null}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </DashboardCard>
  );
}
