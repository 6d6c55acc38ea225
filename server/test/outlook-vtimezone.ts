/**
 * The VTIMEZONE Outlook sends for "W. Europe Standard Time", a Windows zone name no IANA table
 * knows: only these rules (+01:00, +02:00 from the last Sunday of March to the last Sunday of
 * October) place its times. ICS lines to put before the VEVENT whose DTSTART names that TZID.
 */
export const W_EUROPE_VTIMEZONE: readonly string[] = [
  "BEGIN:VTIMEZONE",
  "TZID:W. Europe Standard Time",
  "BEGIN:STANDARD",
  "DTSTART:16010101T030000",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:16010101T020000",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
];
