import { findIana } from "windows-iana";
import { isValidTimeZone } from "../../contract/calendar-window.ts";

/**
 * The IANA zone a TZID names, so its times are placed by the runtime's time zone database and
 * never by the sender's own VTIMEZONE rules (decision 0049): an IANA name as it is, a Windows
 * name (Outlook and Exchange write "W. Europe Standard Time") by the CLDR table, or an IANA name
 * at the end of a prefixed id ("/mozilla.org/20050126_1/Europe/Berlin"). Null for anything else.
 */
export function ianaZoneOf(tzid: string): string | null {
  if (isValidTimeZone(tzid)) return tzid;
  const known = windowsNames.get(tzid);
  if (known !== undefined) return known;
  const windows = findIana(tzid, "001")[0];
  // CLDR's "001" row is the zone Windows means by the name; its first entry is the canonical one.
  const mapped = windows !== undefined && isValidTimeZone(windows) ? windows : null;
  if (mapped !== null || windowsNames.size < MAX_REMEMBERED) windowsNames.set(tzid, mapped);
  if (mapped !== null) return mapped;
  const segments = tzid.split("/");
  for (const take of [3, 2]) {
    if (segments.length <= take) continue;
    const tail = segments.slice(-take).join("/");
    if (isValidTimeZone(tail)) return tail;
  }
  return null;
}

/** TZIDs already looked up in the Windows table (a linear scan of a few hundred rows). */
const windowsNames = new Map<string, string | null>();
/** Unknown names come from senders: remember only so many of them. */
const MAX_REMEMBERED = 1000;
