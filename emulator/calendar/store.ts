import { createHash } from "node:crypto";
import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";
import type { Clock } from "../clock.ts";
import { addDays, daysBetween, type EventTime, instantOf } from "./time.ts";

export type EventStatus = "confirmed" | "tentative" | "cancelled";
export type ResponseStatus = "needsAction" | "declined" | "tentative" | "accepted";

export interface CalendarPerson {
  readonly email: string;
  readonly name?: string | undefined;
}

export interface CalendarAttendee extends CalendarPerson {
  readonly response: ResponseStatus;
}

export interface CalendarInfo {
  readonly id: string;
  readonly summary: string;
  readonly timeZone: string;
  readonly primary: boolean;
  readonly accessRole: "owner" | "reader";
  readonly color: string;
}

/** One stored event: a single event, a recurring series (rrule), or an exception to a series. */
export interface StoredEvent {
  readonly id: string;
  readonly calendarId: string;
  readonly uid: string;
  readonly created: number;
  updated: number;
  /** The store's change sequence at this event's last change; sync tokens compare against it. */
  changeSeq: number;
  /** iCalendar SEQUENCE: bumped on every organizer change. */
  sequence: number;
  summary: string;
  description: string;
  location: string;
  start: EventTime;
  end: EventTime;
  /** RRULE value without the `RRULE:` prefix, for a series. */
  rrule: string | undefined;
  status: EventStatus;
  organizer: CalendarPerson;
  attendees: CalendarAttendee[];
  /** For an exception: the series it belongs to and the occurrence it replaces. */
  recurringEventId: string | undefined;
  originalStart: EventTime | undefined;
  /** Removed from the calendar; kept as a tombstone so sync can report the removal. */
  deleted: boolean;
}

/** One occurrence on the calendar, as singleEvents=true and calendarView return it. */
export interface EventInstance {
  readonly id: string;
  readonly kind: "single" | "occurrence" | "exception";
  /** Where the instance's fields come from: the event itself, the series, or the exception. */
  readonly source: StoredEvent;
  readonly master: StoredEvent | undefined;
  readonly start: EventTime;
  readonly end: EventTime;
  readonly startMs: number;
  readonly endMs: number;
  readonly originalStart: EventTime | undefined;
}

interface Occurrence {
  readonly start: EventTime;
  readonly startMs: number;
  readonly end: EventTime;
  readonly endMs: number;
  /** Google's instance id suffix for this occurrence. */
  readonly suffix: string;
}

export interface Window {
  readonly startMs: number;
  readonly endMs: number;
}

/** Far enough for an open-ended series; a window is required before anything is expanded. */
const MAX_OCCURRENCES = 5000;

/** Google's instance id suffix: the original start in UTC basic format, or the date. */
function instanceSuffix(time: EventTime, calendarZone: string): string {
  if (time.kind === "date") return time.date.replaceAll("-", "");
  const utc = Temporal.Instant.fromEpochMilliseconds(instantOf(time, calendarZone)).toString();
  return `${utc.slice(0, 19).replaceAll("-", "").replaceAll(":", "")}Z`;
}

function timeKey(time: EventTime): string {
  return time.kind === "date" ? time.date : `${time.local}@${time.timeZone}`;
}

/** Event ids in Google's alphabet: lower-case base32hex, 5 to 1024 characters. */
export function googleEventId(seed: string): string {
  const digest = createHash("sha256").update(seed).digest();
  let out = "";
  for (const byte of digest.subarray(0, 16)) out += (byte % 32).toString(32);
  return out;
}

/**
 * One person's calendars. Every change bumps the store's sequence and stamps the changed event,
 * so Google sync tokens and Graph delta tokens can both ask "what changed since N". Tokens older
 * than the floor answer 410 (full sync required).
 */
export class CalendarStore {
  readonly key: string;
  readonly owner: CalendarPerson;
  readonly timeZone: string;
  readonly calendars: CalendarInfo[];
  readonly #clock: Clock;
  readonly #events = new Map<string, StoredEvent>();
  #seq = 1;
  #floor = 1;
  readonly #listeners = new Set<() => void>();
  readonly #expansions = new Map<string, { changeSeq: number; untilMs: number; list: Occurrence[] }>();

  constructor(key: string, owner: CalendarPerson, timeZone: string, clock: Clock, calendars: CalendarInfo[]) {
    this.key = key;
    this.owner = owner;
    this.timeZone = timeZone;
    this.#clock = clock;
    this.calendars = calendars;
  }

  get seq(): number {
    return this.#seq;
  }

  get floor(): number {
    return this.#floor;
  }

  get primary(): CalendarInfo {
    const primary = this.calendars.find((calendar) => calendar.primary);
    if (primary === undefined) throw new Error("a calendar store without a primary calendar");
    return primary;
  }

  /** Resolves `primary` or a calendar id (Google also accepts the owner's address). */
  calendar(id: string): CalendarInfo | undefined {
    if (id === "primary" || id.toLowerCase() === this.owner.email.toLowerCase()) return this.primary;
    return this.calendars.find((calendar) => calendar.id === id);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Makes every sync token issued so far invalid, as Google and Graph do when they drop state. */
  expireSyncState(): void {
    this.#seq += 1;
    this.#floor = this.#seq;
  }

  get(id: string): StoredEvent | undefined {
    return this.#events.get(id);
  }

  events(calendarId: string): StoredEvent[] {
    return [...this.#events.values()].filter((event) => event.calendarId === calendarId);
  }

  #stamp(event: StoredEvent): void {
    this.#seq += 1;
    event.changeSeq = this.#seq;
    event.updated = this.#clock.now();
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Adds an event; `record` false for seeding, whose events predate any sync token. */
  add(
    input: Omit<
      StoredEvent,
      "id" | "uid" | "created" | "updated" | "changeSeq" | "sequence" | "deleted" | "recurringEventId"
    > & {
      id?: string;
      /** A guest's copy keeps the organizer's iCalendar UID. */
      uid?: string;
      recurringEventId?: string;
    },
    record = true,
  ): StoredEvent {
    let id = input.id ?? googleEventId(`${this.key}:${this.#seq}:${this.#events.size}:${this.#clock.now()}`);
    while (this.#events.has(id)) id = googleEventId(`${id}+`);
    const now = this.#clock.now();
    const event: StoredEvent = {
      ...input,
      id,
      uid:
        input.uid ??
        (input.recurringEventId
          ? (this.#events.get(input.recurringEventId)?.uid ?? `${id}@google.com`)
          : `${id}@google.com`),
      created: now,
      updated: now,
      changeSeq: 0,
      sequence: 0,
      deleted: false,
      recurringEventId: input.recurringEventId,
    };
    this.#events.set(id, event);
    if (record) {
      this.#stamp(event);
      this.#notify();
    } else {
      event.changeSeq = this.#seq;
    }
    return event;
  }

  /** Cancels one occurrence of a series: an exception with status cancelled. */
  cancelOccurrence(master: StoredEvent, originalStart: EventTime, record = true): StoredEvent {
    return this.overrideOccurrence(master, originalStart, { status: "cancelled" }, record);
  }

  /** Replaces one occurrence of a series with changed fields (moved, renamed, cancelled). */
  overrideOccurrence(
    master: StoredEvent,
    originalStart: EventTime,
    change: Partial<Pick<StoredEvent, "start" | "end" | "summary" | "status" | "location">>,
    record = true,
  ): StoredEvent {
    const duration = this.#durationOf(master);
    const start = change.start ?? originalStart;
    const end = change.end ?? this.#shift(start, duration);
    return this.add(
      {
        id: `${master.id}_${instanceSuffix(originalStart, this.timeZone)}`,
        calendarId: master.calendarId,
        summary: change.summary ?? master.summary,
        description: master.description,
        location: change.location ?? master.location,
        start,
        end,
        rrule: undefined,
        status: change.status ?? master.status,
        organizer: master.organizer,
        attendees: master.attendees,
        recurringEventId: master.id,
        originalStart,
      },
      record,
    );
  }

  /** Removes an event (a series with its exceptions); the tombstones report it to sync. */
  delete(id: string): boolean {
    const event = this.#events.get(id);
    if (event === undefined || event.deleted) return false;
    for (const other of this.#events.values()) {
      if (other === event || other.recurringEventId === id) {
        other.deleted = true;
        this.#stamp(other);
      }
    }
    this.#notify();
    return true;
  }

  /** Changes fields of a stored event (an organizer edit), recorded for sync. */
  update(
    id: string,
    change: Partial<Pick<StoredEvent, "summary" | "location" | "status" | "start" | "end">>,
  ) {
    const event = this.#events.get(id);
    if (event === undefined || event.deleted) return undefined;
    Object.assign(event, change);
    event.sequence += 1;
    this.#stamp(event);
    this.#notify();
    return event;
  }

  /** The live (not removed) events carrying an iCalendar UID: a series and its exceptions share one. */
  byUid(uid: string): StoredEvent[] {
    return [...this.#events.values()].filter((event) => event.uid === uid && !event.deleted);
  }

  /**
   * Records one attendee's answer (not an organizer change: SEQUENCE stays). Answers whether the
   * attendee was on the event.
   */
  setResponse(id: string, email: string, response: ResponseStatus): boolean {
    const event = this.#events.get(id);
    if (event === undefined || event.deleted) return false;
    const wanted = email.toLowerCase();
    const index = event.attendees.findIndex((attendee) => attendee.email.toLowerCase() === wanted);
    if (index < 0) return false;
    event.attendees = event.attendees.map((attendee, i) =>
      i === index ? { ...attendee, response } : attendee,
    );
    this.#stamp(event);
    this.#notify();
    return true;
  }

  #durationOf(event: StoredEvent): { days: number } | { ms: number } {
    if (event.start.kind === "date" && event.end.kind === "date")
      return { days: daysBetween(event.start.date, event.end.date) };
    return { ms: instantOf(event.end, this.timeZone) - instantOf(event.start, this.timeZone) };
  }

  #shift(start: EventTime, duration: { days: number } | { ms: number }): EventTime {
    if (start.kind === "date")
      return { kind: "date", date: addDays(start.date, "days" in duration ? duration.days : 1) };
    const ms = "ms" in duration ? duration.ms : duration.days * 86_400_000;
    const zoned = Temporal.PlainDateTime.from(start.local)
      .toZonedDateTime(start.timeZone)
      .add({ milliseconds: ms });
    return {
      kind: "timed",
      local: zoned.toPlainDateTime().toString({ smallestUnit: "second" }),
      timeZone: start.timeZone,
    };
  }

  #instance(
    kind: EventInstance["kind"],
    id: string,
    source: StoredEvent,
    master: StoredEvent | undefined,
    start: EventTime,
    end: EventTime,
    originalStart: EventTime | undefined,
  ): EventInstance {
    return {
      id,
      kind,
      source,
      master,
      start,
      end,
      startMs: instantOf(start, this.timeZone),
      endMs: instantOf(end, this.timeZone),
      originalStart,
    };
  }

  /**
   * The series' plain occurrences up to `untilMs`, cached per series version: ical.js iterates
   * rules slowly (about a millisecond a step), and every list, page and sync reads them again.
   */
  #occurrences(master: StoredEvent, untilMs: number): Occurrence[] {
    const cached = this.#expansions.get(master.id);
    if (cached !== undefined && cached.changeSeq === master.changeSeq && cached.untilMs >= untilMs) {
      return cached.list;
    }
    // Expand a year past what was asked, so paging forward does not re-expand every time.
    const horizon = Math.max(untilMs, (cached?.untilMs ?? 0) + 1) + 366 * 86_400_000;
    const rule = master.rrule ?? "";
    const duration = this.#durationOf(master);
    const start = master.start;
    const dtstart =
      start.kind === "date"
        ? ICAL.Time.fromDateString(start.date)
        : ICAL.Time.fromDateTimeString(start.local);
    const iterator = ICAL.Recur.fromString(rule).iterator(dtstart);
    const list: Occurrence[] = [];
    // RFC 5545: DTSTART is the first occurrence even when the rule would not produce it.
    let next: ICAL.Time | null = dtstart;
    let first = true;
    for (let n = 0; n < MAX_OCCURRENCES && next !== null; n += 1) {
      const occurrenceStart: EventTime =
        start.kind === "date"
          ? { kind: "date", date: next.toString().slice(0, 10) }
          : { kind: "timed", local: next.toString().slice(0, 19), timeZone: start.timeZone };
      const startMs = instantOf(occurrenceStart, this.timeZone);
      if (startMs >= horizon) break;
      const end = this.#shift(occurrenceStart, duration);
      list.push({
        start: occurrenceStart,
        startMs,
        end,
        endMs: instantOf(end, this.timeZone),
        suffix: instanceSuffix(occurrenceStart, this.timeZone),
      });
      let candidate = iterator.next();
      // The iterator yields DTSTART itself when it matches the rule; skip that repeat.
      if (first && candidate !== null && candidate.compare(dtstart) === 0) candidate = iterator.next();
      first = false;
      next = candidate;
    }
    this.#expansions.set(master.id, { changeSeq: master.changeSeq, untilMs: horizon, list });
    return list;
  }

  /** The occurrences of a series overlapping the window, exceptions applied. */
  #expand(master: StoredEvent, window: Window, includeCancelled: boolean): EventInstance[] {
    const exceptions = new Map<string, StoredEvent>();
    for (const event of this.#events.values()) {
      if (event.recurringEventId === master.id && event.originalStart !== undefined && !event.deleted)
        exceptions.set(timeKey(event.originalStart), event);
    }
    const out: EventInstance[] = [];
    for (const occurrence of this.#occurrences(master, window.endMs)) {
      if (occurrence.startMs >= window.endMs) break;
      const id = `${master.id}_${occurrence.suffix}`;
      const exception = exceptions.get(timeKey(occurrence.start));
      if (exception !== undefined) {
        if (exception.status !== "cancelled" || includeCancelled) {
          const instance = this.#instance(
            "exception",
            id,
            exception,
            master,
            exception.start,
            exception.end,
            occurrence.start,
          );
          if (instance.endMs > window.startMs && instance.startMs < window.endMs) out.push(instance);
        }
      } else if (occurrence.endMs > window.startMs) {
        out.push({
          id,
          kind: "occurrence",
          source: master,
          master,
          start: occurrence.start,
          end: occurrence.end,
          startMs: occurrence.startMs,
          endMs: occurrence.endMs,
          originalStart: occurrence.start,
        });
      }
    }
    return out;
  }

  /** Every instance of the calendar overlapping the window (singleEvents=true, calendarView). */
  instances(calendarId: string, window: Window, includeCancelled: boolean): EventInstance[] {
    const out: EventInstance[] = [];
    for (const event of this.#events.values()) {
      if (event.calendarId !== calendarId || event.deleted || event.recurringEventId !== undefined) continue;
      if (event.rrule !== undefined) {
        out.push(...this.#expand(event, window, includeCancelled));
        continue;
      }
      if (event.status === "cancelled" && !includeCancelled) continue;
      const instance = this.#instance(
        "single",
        event.id,
        event,
        undefined,
        event.start,
        event.end,
        undefined,
      );
      if (instance.endMs > window.startMs && instance.startMs < window.endMs) out.push(instance);
    }
    return out.sort((a, b) => a.startMs - b.startMs || a.id.localeCompare(b.id));
  }

  /**
   * What changed after `since`, as instances in the window: every occurrence of a changed series,
   * a changed exception's occurrence, changed singles. Removed ids are listed apart.
   */
  changedInstances(
    calendarId: string,
    since: number,
    window: Window,
  ): { instances: EventInstance[]; removed: string[] } {
    const changedMasters = new Set<string>();
    const removed: string[] = [];
    const changedIds = new Set<string>();
    for (const event of this.#events.values()) {
      if (event.calendarId !== calendarId || event.changeSeq <= since) continue;
      if (event.recurringEventId !== undefined) changedMasters.add(event.recurringEventId);
      else if (event.rrule !== undefined) changedMasters.add(event.id);
      changedIds.add(event.id);
    }
    const instances: EventInstance[] = [];
    for (const instance of this.instances(calendarId, window, true)) {
      const seriesId = instance.master?.id;
      if (seriesId !== undefined ? changedMasters.has(seriesId) : changedIds.has(instance.id))
        instances.push(instance);
    }
    const present = new Set(instances.map((instance) => instance.id));
    for (const id of changedIds) {
      const event = this.#events.get(id);
      if (event === undefined) continue;
      if (event.deleted && !present.has(id)) removed.push(id);
    }
    return { instances, removed };
  }

  /** Stored events changed after `since` (singleEvents=false sync): series, exceptions, singles. */
  changedEvents(calendarId: string, since: number): StoredEvent[] {
    return [...this.#events.values()]
      .filter((event) => event.calendarId === calendarId && event.changeSeq > since)
      .sort((a, b) => a.changeSeq - b.changeSeq);
  }
}
