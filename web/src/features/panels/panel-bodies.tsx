import { lazy, Suspense } from "react";
import { useEmailAnalytics, useEmailStats } from "../../lib/mail-queries.ts";
import { DailyMailChart } from "../analytics/daily-mail-chart.tsx";
import { formatCount } from "../inbox/format.ts";

// Loaded when first opened: the views and their date maths stay out of the dashboard's bundle.
const CalendarPanel = lazy(() => import("../calendar/calendar-panel.tsx"));

/** The Calendar panel: the person's connected calendars by day, week or month. */
export function CalendarPanelBody() {
  return (
    <Suspense fallback={<p className="text-sm text-slate-600">Loading calendar…</p>}>
      <CalendarPanel />
    </Suspense>
  );
}

/** The Analytics Dashboard panel: today's figures, the last 14 days and who writes most. */
export function AnalyticsPanelBody() {
  const { data: stats, isPending } = useEmailStats();
  const analytics = useEmailAnalytics();
  const figures: Array<[string, number]> = stats
    ? [
        ["Emails in your inboxes", stats.totalEmails],
        ["Unread", stats.unreadCount],
        ["Read today", stats.readToday],
        ["Gmail", stats.providerCounts.gmail],
        ["Outlook", stats.providerCounts.outlook],
      ]
    : [];
  return (
    <div className="space-y-4">
      {isPending ? <p className="text-sm text-slate-500">Loading…</p> : null}
      {figures.length > 0 ? (
        <dl className="grid grid-cols-2 gap-3">
          {figures.map(([label, value]) => (
            <div key={label} className="rounded-lg border border-slate-200 p-3">
              <dt className="text-xs text-slate-600">{label}</dt>
              <dd className="text-xl font-semibold text-slate-900">{formatCount(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {analytics.isError ? (
        <p role="alert" className="text-sm text-red-800">
          The last days' figures could not be loaded.
        </p>
      ) : null}
      {analytics.data ? (
        <>
          <DailyMailChart days={analytics.data.days} />
          <section aria-labelledby="top-senders-title">
            <h3 id="top-senders-title" className="text-sm font-semibold text-slate-900">
              Top senders
            </h3>
            {analytics.data.topSenders.length === 0 ? (
              <p className="mt-1 text-sm text-slate-600">
                No mail in the last {analytics.data.days.length} days.
              </p>
            ) : (
              <ol className="mt-1 space-y-1 text-sm">
                {analytics.data.topSenders.map((s) => (
                  <li key={s.address} className="flex justify-between gap-3">
                    <span className="truncate text-slate-800" title={s.address}>
                      {s.name.trim() || s.address}
                    </span>
                    <span className="text-slate-600">{formatCount(s.count)}</span>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}
