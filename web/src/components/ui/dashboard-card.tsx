import type { ReactNode } from "react";

/**
 * The dashboard's side cards (Drafts, Scheduled, Snoozed): a titled section with its count, and
 * one sentence while its list loads or when it could not be read; the list itself once it has.
 */
export function DashboardCard<T>({
  id,
  title,
  count,
  data,
  isError,
  errorText,
  children,
}: {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  /** Shown beside the title when above zero. */
  count: number | undefined;
  /** The card's query data: undefined while it loads or when it could not be read. */
  data: T | undefined;
  isError: boolean;
  errorText: string;
  /** Renders the list once the data is there. */
  children: (data: T) => ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={id} className="font-semibold text-slate-900">
          {title}
        </h2>
        {count ? <span className="text-sm text-slate-600">{count}</span> : null}
      </div>
      {data !== undefined ? (
        children(data)
      ) : isError ? (
        <p className="mt-3 text-sm text-red-700">{errorText}</p>
      ) : (
        <p className="mt-3 text-sm text-slate-500">Loading…</p>
      )}
    </section>
  );
}
