import type { Clock } from "../clock.ts";
import { type Identity, SEEDED_IDENTITIES } from "../identities.ts";
import { homeZoneOf, seedCalendar } from "./seed.ts";
import { type CalendarInfo, CalendarStore } from "./store.ts";

export interface CalendarRegistryOptions {
  /** Seed the demo identities' calendars with events around the clock (default true). */
  seed?: boolean;
}

/** Google's public holiday calendar, which a new Google account has in its calendar list. */
const GOOGLE_HOLIDAYS: CalendarInfo = {
  id: "en.usa#holiday@group.v.calendar.google.com",
  summary: "Holidays in United States",
  timeZone: "America/New_York",
  primary: false,
  accessRole: "reader",
  color: "#16a765",
};

/** Each identity's calendars, created (and for demo people seeded) on first use. */
export class CalendarRegistry {
  readonly #clock: Clock;
  readonly #options: CalendarRegistryOptions;
  #stores = new Map<string, CalendarStore>();

  constructor(clock: Clock, options: CalendarRegistryOptions = {}) {
    this.#clock = clock;
    this.#options = options;
  }

  get(identity: Identity): CalendarStore {
    const key = `${identity.provider}:${identity.id}`;
    const existing = this.#stores.get(key);
    if (existing !== undefined) return existing;
    const store = this.#create(identity, homeZoneOf(identity.email));
    const seeded = SEEDED_IDENTITIES.some((s) => s.provider === identity.provider && s.id === identity.id);
    if (this.#options.seed !== false && seeded) seedCalendar(store, identity, this.#clock.now());
    return store;
  }

  #create(identity: Identity, zone: string): CalendarStore {
    const key = `${identity.provider}:${identity.id}`;
    const primary: CalendarInfo = {
      // Google names the primary calendar by its owner's address; Graph ids are opaque.
      id:
        identity.provider === "google"
          ? identity.email
          : `AAMkAGcal${Buffer.from(identity.id).toString("base64url")}AAA=`,
      summary: identity.provider === "google" ? identity.email : "Calendar",
      timeZone: zone,
      primary: true,
      accessRole: "owner",
      color: "#9fe1e7",
    };
    const calendars = identity.provider === "google" ? [primary, GOOGLE_HOLIDAYS] : [primary];
    const store = new CalendarStore(
      key,
      { email: identity.email, name: identity.name },
      zone,
      this.#clock,
      calendars,
    );
    this.#stores.set(key, store);
    return store;
  }

  /**
   * Replaces a person's calendars with the demo seeding in `timeZone` (tests give fresh
   * identities the same realistic calendar the demo people have).
   */
  seed(identity: Identity, timeZone: string): CalendarStore {
    this.#stores.delete(`${identity.provider}:${identity.id}`);
    const store = this.#create(identity, timeZone);
    seedCalendar(store, identity, this.#clock.now());
    return store;
  }

  peek(identity: Identity): CalendarStore | undefined {
    return this.#stores.get(`${identity.provider}:${identity.id}`);
  }

  reset(): void {
    this.#stores = new Map();
  }
}
