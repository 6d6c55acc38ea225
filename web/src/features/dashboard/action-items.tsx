import { useActionItems } from "../../lib/mail-queries.ts";

/** Spec section 9: the action-item list shows 3. */
export const ACTION_ITEMS_SHOWN = 3;

/** Emails that ask for something, from GET /api/emails/action-items. */
export function ActionItemsCard({ onOpenEmail }: { onOpenEmail: (id: string) => void }) {
  const { data, isPending, isError } = useActionItems();
  const items = data?.items.slice(0, ACTION_ITEMS_SHOWN) ?? [];
  return (
    <section
      aria-labelledby="action-items-title"
      className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="action-items-title" className="font-semibold text-slate-900">
          Action items
        </h2>
        {data && data.count > 0 ? (
          <span className="text-sm text-slate-600">{data.count} need action</span>
        ) : null}
      </div>
      {isPending ? (
        <p className="mt-3 text-sm text-slate-500">Loading…</p>
      ) : isError ? (
        <p className="mt-3 text-sm text-red-700">Could not load action items.</p>
      ) : items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">No urgent emails requiring action</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100" aria-label="Action items">
          {items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                onClick={() => onOpenEmail(item.id)}
                className="block w-full min-w-0 rounded px-1 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <span className="block truncate text-sm font-medium text-slate-900">
                  {item.subject || "(no subject)"}
                </span>
                <span className="block truncate text-xs text-slate-600">
                  {item.from}
                  {item.reason ? ` · ${item.reason}` : ""}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
