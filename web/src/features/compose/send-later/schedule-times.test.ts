import { describe, expect, it } from "vitest";
import { SEND_AT_PAST_MESSAGE, SEND_AT_TOO_FAR_MESSAGE } from "../../../../../contract/scheduled.ts";
import { followUpOf } from "./follow-up-select.tsx";
import { pickedTime, sendPresets, toLocalInput } from "./schedule-times.ts";

describe("send later in compose (issue 37)", () => {
  const now = new Date("2026-12-06T10:00:00Z");

  it("offers Tomorrow 8 AM and Monday 8 AM with their dates", () => {
    const [tomorrow, monday] = sendPresets(now, "UTC");
    expect(tomorrow?.label).toBe("Tomorrow 8 AM");
    expect(tomorrow?.at.toISOString()).toBe("2026-12-07T08:00:00.000Z");
    expect(monday?.label).toBe("Monday 8 AM");
    expect(monday?.date).toMatch(/7/);
  });

  it("refuses a picked time in the past or over a year ahead, with the server's words", () => {
    expect(pickedTime(toLocalInput(new Date(now.getTime() - 60_000)), now)).toEqual({
      error: SEND_AT_PAST_MESSAGE,
    });
    expect(pickedTime(toLocalInput(new Date(now.getTime() + 400 * 86_400_000)), now)).toEqual({
      error: SEND_AT_TOO_FAR_MESSAGE,
    });
    expect(pickedTime("", now)).toEqual({ error: "Pick a date and time." });
    const ok = pickedTime(toLocalInput(new Date(now.getTime() + 2 * 3_600_000)), now);
    expect("at" in ok && ok.at.getTime() - now.getTime()).toBe(2 * 3_600_000);
  });

  it("turns the reminder choice into the request's followUp; none by default", () => {
    expect(followUpOf("", "")).toBeUndefined();
    expect(followUpOf("3", "")).toEqual({ days: 3 });
    expect(followUpOf("date", "")).toBeUndefined();
    const at = followUpOf("date", "2026-12-10T09:30");
    expect(at && "at" in at ? new Date(at.at).getTime() : 0).toBe(new Date("2026-12-10T09:30").getTime());
  });
});
