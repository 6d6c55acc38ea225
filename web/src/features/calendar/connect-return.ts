import { useEffect } from "react";
import { calendarConnectFailureText } from "../../../../contract/calendar-connect.ts";
import { toast } from "../../components/ui/toast-store.ts";

/** Query parameters the calendar connect flow returns to /dashboard with. */
export const CONNECT_RETURN_PARAM = "calendar";

/**
 * After the full-page calendar consent the server sends the person back to
 * /dashboard?calendar=connected (or =error&code=...): say how it went, open the Calendar panel,
 * and drop the parameters so a reload does not repeat it. A failure shows its code's fixed text:
 * anyone can craft this link, so no text from it ever reaches the page (a `message` is ignored).
 */
export function useCalendarConnectReturn(openCalendar: () => void): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const outcome = params.get(CONNECT_RETURN_PARAM);
    if (outcome !== "connected" && outcome !== "error") return;
    const provider = params.get("provider") === "outlook" ? "Outlook Calendar" : "Google Calendar";
    if (outcome === "connected") {
      toast({
        title: "Calendar connected",
        description: `${provider} is connected. Its events are on the way.`,
      });
    } else {
      toast({
        title: "Calendar not connected",
        description: calendarConnectFailureText(params.get("code")),
        variant: "destructive",
      });
    }
    for (const key of [CONNECT_RETURN_PARAM, "provider", "code", "message"]) params.delete(key);
    const rest = params.toString();
    window.history.replaceState(
      window.history.state,
      "",
      `${window.location.pathname}${rest ? `?${rest}` : ""}`,
    );
    openCalendar();
  }, []);
}
