import { expect, type Page } from "@playwright/test";
import { calendarPanel } from "./calendar.ts";

/**
 * Switches the Calendar panel to Day, Week or Month and waits until that button shows pressed,
 * so the next step looks at the new view rather than the old one.
 */
export async function showCalendarView(page: Page, name: "Day" | "Week" | "Month") {
  const button = calendarPanel(page).getByRole("button", { name, exact: true });
  await button.click();
  await expect(button).toHaveAttribute("aria-pressed", "true");
}
