/**
 * Calendar days in the person's own time zone, as "YYYY-MM-DD" (docs/game-scoring.md: an
 * inbox-zero day is a local day; a streak is a run of consecutive local days).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function localDay(instant: Date, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  return format.format(instant);
}

/** The calendar day after `day` ("2026-02-28" -> "2026-03-01"). */
export function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
