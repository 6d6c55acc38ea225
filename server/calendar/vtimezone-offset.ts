import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";

/**
 * The UTC offset a sender's own VTIMEZONE gives a wall-clock time, for TZIDs no time zone
 * database knows (decision 0049). ical.js would expand every rule from its DTSTART up to the
 * asked year on the server's one thread: an hourly rule from 2000 took seconds per open, a
 * minutely one minutes, and `FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30` never ends. Here nothing is
 * expanded: real zones change offset by yearly rules (a month and a weekday or day of month),
 * whose onsets are computed in the asked year and the year before only; any other rule is
 * ignored, so its observance starts at its DTSTART and RDATEs alone. The work is bounded by
 * the caps below whatever the text says.
 */

/** Observances (STANDARD/DAYLIGHT blocks), rules and RDATE values read from one VTIMEZONE. */
const MAX_OBSERVANCES = 64;
const MAX_RULES = 4;
const MAX_RDATES = 512;
/** No place on Earth is more than 14 hours off UTC; a larger offset is a broken or hostile zone. */
const MAX_OFFSET_SECONDS = 18 * 3600;

const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const BY_DAY = /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/;
/** The BY-parts a real zone's yearly rule uses; a rule with any other is not read. */
const READ_PARTS = new Set(["BYMONTH", "BYDAY", "BYMONTHDAY"]);

interface Onset {
  at: Temporal.PlainDateTime;
  from: number;
  to: number;
}

/** An ICAL.Time as a wall-clock time, or null where Temporal cannot hold it. */
export function wallOf(time: ICAL.Time): Temporal.PlainDateTime | null {
  try {
    return Temporal.PlainDateTime.from(
      {
        year: time.year,
        month: time.month,
        day: time.day,
        hour: time.hour,
        minute: time.minute,
        second: Math.min(time.second, 59),
      },
      { overflow: "reject" },
    );
  } catch {
    return null;
  }
}

function offsetOf(value: unknown): number | null {
  if (!(value instanceof ICAL.UtcOffset)) return null;
  const seconds = value.toSeconds();
  return Number.isFinite(seconds) && Math.abs(seconds) <= MAX_OFFSET_SECONDS ? seconds : null;
}

/** A day of a month: its number, weekday (1 Monday to 7 Sunday) and the month's length. */
interface Day {
  day: number;
  weekday: number;
  monthLength: number;
}

/** Whether a day matches one BYDAY entry: "SU" any Sunday, "2SU" the second, "-1SU" the last of its month. */
function matchesByDay(entry: string, d: Day): boolean {
  const parsed = BY_DAY.exec(entry);
  if (!parsed) return false;
  if (WEEKDAYS[d.weekday - 1] !== parsed[2]) return false;
  const nth = parsed[1] === undefined ? 0 : Number(parsed[1]);
  if (nth > 0) return Math.ceil(d.day / 7) === nth;
  if (nth < 0) return Math.ceil((d.monthLength - d.day + 1) / 7) === -nth;
  return true;
}

function matchesByMonthDay(days: readonly number[], d: Day): boolean {
  return days.some((n) => n === d.day || n === d.day - d.monthLength - 1);
}

/**
 * The onsets of a yearly rule in one year, computed directly (at most 12 months of 31 days are
 * looked at). Empty for rules of another shape. COUNT is read as one onset a year, as in every
 * real zone's rule.
 */
function yearlyOnsets(
  rule: ICAL.Recur,
  start: Temporal.PlainDateTime,
  year: number,
): Temporal.PlainDateTime[] {
  if (rule.freq !== "YEARLY" || year < start.year) return [];
  if (Object.keys(rule.parts).some((part) => !READ_PARTS.has(part))) return [];
  const interval = Math.max(1, rule.interval || 1);
  if ((year - start.year) % interval !== 0) return [];
  if (rule.count !== null && rule.count > 0 && year > start.year + (rule.count - 1) * interval) return [];
  const byDay = rule.parts.BYDAY ?? [];
  const byMonthDay = rule.parts.BYMONTHDAY ?? [];
  // An ordinal BYDAY without BYMONTH counts weeks of the year, which no zone's rule does.
  if (rule.parts.BYMONTH === undefined && byDay.some((entry) => /\d/.test(entry))) return [];
  const months = (rule.parts.BYMONTH ?? [start.month]).filter((m) => m >= 1 && m <= 12).slice(0, 12);
  const onsets: Temporal.PlainDateTime[] = [];
  for (const month of new Set(months)) {
    // Weekdays by arithmetic from the first of the month: Temporal per day is slow here.
    const first = Temporal.PlainDate.from({ year, month, day: 1 });
    const monthLength = first.daysInMonth;
    for (let day = 1; day <= monthLength; day += 1) {
      const d = { day, weekday: ((first.dayOfWeek - 1 + day - 1) % 7) + 1, monthLength };
      const fits =
        byDay.length === 0 && byMonthDay.length === 0
          ? day === start.day
          : (byDay.length === 0 || byDay.some((entry) => matchesByDay(entry, d))) &&
            (byMonthDay.length === 0 || matchesByMonthDay(byMonthDay, d));
      if (fits) onsets.push(first.with({ day }).toPlainDateTime(start.toPlainTime()));
    }
  }
  return onsets;
}

/** An onset is within the rule's UNTIL (a UTC UNTIL is compared with the onset's UTC time). */
function withinUntil(rule: ICAL.Recur, onset: Temporal.PlainDateTime, from: number): boolean {
  if (!rule.until) return true;
  const until = wallOf(rule.until);
  if (!until) return false;
  const utc = rule.until.zone === ICAL.Timezone.utcTimezone;
  return Temporal.PlainDateTime.compare(utc ? onset.subtract({ seconds: from }) : onset, until) <= 0;
}

/** The onsets of one observance that could be the last one at or before `wall`. */
function onsetsOf(observance: ICAL.Component, wall: Temporal.PlainDateTime): Onset[] {
  const dtstart = observance.getFirstPropertyValue("dtstart");
  const to = offsetOf(observance.getFirstPropertyValue("tzoffsetto"));
  if (!(dtstart instanceof ICAL.Time) || to === null) return [];
  const start = wallOf(dtstart);
  if (!start) return [];
  const from = offsetOf(observance.getFirstPropertyValue("tzoffsetfrom")) ?? to;
  const times: Temporal.PlainDateTime[] = [start];
  for (const prop of observance.getAllProperties("rdate")) {
    if (times.length > MAX_RDATES) break;
    for (const value of prop.getValues().slice(0, MAX_RDATES)) {
      const time = value instanceof ICAL.Time ? wallOf(value) : null;
      if (time) times.push(time);
    }
  }
  for (const prop of observance.getAllProperties("rrule").slice(0, MAX_RULES)) {
    const rule = prop.getFirstValue();
    if (!(rule instanceof ICAL.Recur)) continue;
    for (const year of [wall.year - 1, wall.year]) {
      for (const onset of yearlyOnsets(rule, start, year)) {
        if (Temporal.PlainDateTime.compare(onset, start) >= 0 && withinUntil(rule, onset, from))
          times.push(onset);
      }
    }
  }
  return times.map((at) => ({ at, from, to }));
}

/**
 * The first MAX_OBSERVANCES STANDARD and DAYLIGHT blocks, wrapped from the parsed data directly:
 * ical.js's getAllSubcomponents would wrap every one of thousands first.
 */
function observancesOf(definition: ICAL.Component): ICAL.Component[] {
  const children: unknown = definition.jCal[2];
  if (!Array.isArray(children)) return [];
  const out: ICAL.Component[] = [];
  for (const child of children) {
    if (out.length >= MAX_OBSERVANCES) break;
    if (Array.isArray(child) && (child[0] === "standard" || child[0] === "daylight"))
      out.push(new ICAL.Component(child, definition));
  }
  return out;
}

/**
 * Seconds east of UTC that the VTIMEZONE `definition` gives the wall-clock time `wall`: the
 * offset of the latest onset at or before it; before every onset, the offset the earliest one
 * changes from. Null when the definition has no readable observance.
 */
export function vtimezoneOffsetAt(definition: ICAL.Component, wall: Temporal.PlainDateTime): number | null {
  let latest: Onset | null = null;
  let earliest: Onset | null = null;
  for (const observance of observancesOf(definition)) {
    for (const onset of onsetsOf(observance, wall)) {
      if (earliest === null || Temporal.PlainDateTime.compare(onset.at, earliest.at) < 0) earliest = onset;
      if (
        Temporal.PlainDateTime.compare(onset.at, wall) <= 0 &&
        (latest === null || Temporal.PlainDateTime.compare(onset.at, latest.at) > 0)
      )
        latest = onset;
    }
  }
  if (latest) return latest.to;
  return earliest ? earliest.from : null;
}
