import type { EmailAnalytics } from "../../../../contract/mail.ts";

type Day = EmailAnalytics["days"][number];

/** "Mon 24": the day's short name and date, read from the UTC date the server counted by. */
function dayLabel(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return d.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", timeZone: "UTC" });
}

/**
 * Mail received and read per day as paired bars, scaled to the busiest day. Plain elements, not
 * a charting library: fourteen pairs of bars need no axes engine (decision 0044).
 */
export function DailyMailChart({ days }: { days: readonly Day[] }) {
  const max = Math.max(1, ...days.flatMap((d) => [d.received, d.read]));
  const height = (n: number) => `${Math.round((n / max) * 100)}%`;
  return (
    <figure>
      <figcaption className="flex items-center justify-between text-xs text-slate-600">
        <span>Last {days.length} days</span>
        <span className="flex gap-3">
          <span className="flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-2 w-2 rounded-sm bg-brand-600" /> Received
          </span>
          <span className="flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-2 w-2 rounded-sm bg-emerald-500" /> Read
          </span>
        </span>
      </figcaption>
      <ol aria-label="Mail per day" className="mt-2 flex h-28 items-end gap-1">
        {days.map((d) => (
          <li
            key={d.date}
            className="flex h-full flex-1 items-end justify-center gap-px"
            title={`${dayLabel(d.date)}: ${d.received} received, ${d.read} read`}
          >
            <span className="sr-only">{`${dayLabel(d.date)}: ${d.received} received, ${d.read} read`}</span>
            <span
              aria-hidden="true"
              className="w-1/2 rounded-t bg-brand-600"
              style={{ height: height(d.received) }}
            />
            <span
              aria-hidden="true"
              className="w-1/2 rounded-t bg-emerald-500"
              style={{ height: height(d.read) }}
            />
          </li>
        ))}
      </ol>
      <div aria-hidden="true" className="mt-1 flex justify-between text-[10px] text-slate-500">
        <span>{days[0] ? dayLabel(days[0].date) : ""}</span>
        <span>{days.at(-1) ? dayLabel(days.at(-1)?.date ?? "") : ""}</span>
      </div>
    </figure>
  );
}
