import { lazy, Suspense } from "react";
import { useEmailStats } from "../../lib/mail-queries.ts";
import { ComingSoonNote } from "../dashboard/coming-soon-dialog.tsx";
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

/** The Analytics Dashboard panel: today's real figures; charts come later. */
export function AnalyticsPanelBody() {
  const { data: stats, isPending } = useEmailStats();
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
    <div>
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
      <ComingSoonNote />
    </div>
  );
}
