/**
 * Helpers for the Inbox Zero specs: start the mode, read its stack, swipe its top card with a
 * mouse, a finger (CDP touch events) or a pen (CDP pointerType pen), spy on the chime.
 */
import { expect, type Page } from "@playwright/test";

export const CHIME_HZ = [261.63, 329.63, 392, 523.25];

export function mode(page: Page) {
  return page.getByRole("dialog", { name: "Inbox Zero Mode" });
}

export function topCard(page: Page) {
  return mode(page).locator("[data-top-card]");
}

export async function topEmailId(page: Page): Promise<string> {
  await expect(topCard(page)).toBeVisible();
  return (await topCard(page).getAttribute("data-email-id")) ?? "";
}

export async function startInboxZero(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Start Inbox Zero" }).click();
  await expect(mode(page)).toBeVisible();
}

export function remaining(page: Page) {
  return mode(page).getByTestId("inbox-zero-remaining");
}

async function cardCentre(page: Page): Promise<{ x: number; y: number }> {
  const box = await topCard(page).boundingBox();
  if (!box) throw new Error("no top card");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

export async function mouseSwipe(page: Page, dx: number, dy: number): Promise<void> {
  const { x, y } = await cardCentre(page);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 10 });
  await page.mouse.up();
}

export async function touchSwipe(page: Page, dx: number, dy: number): Promise<void> {
  const { x, y } = await cardCentre(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  for (let i = 1; i <= 10; i++) {
    await cdp.send("Input.dispatchTouchEvent", {
      type: "touchMove",
      touchPoints: [{ x: x + (dx * i) / 10, y: y + (dy * i) / 10 }],
    });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

export async function penSwipe(page: Page, dx: number, dy: number): Promise<void> {
  const { x, y } = await cardCentre(page);
  const cdp = await page.context().newCDPSession(page);
  const pen = { pointerType: "pen" as const, button: "left" as const };
  await cdp.send("Input.dispatchMouseEvent", {
    type: "mousePressed",
    x,
    y,
    clickCount: 1,
    buttons: 1,
    ...pen,
  });
  for (let i = 1; i <= 10; i++) {
    await cdp.send("Input.dispatchMouseEvent", {
      type: "mouseMoved",
      x: x + (dx * i) / 10,
      y: y + (dy * i) / 10,
      buttons: 1,
      ...pen,
    });
  }
  await cdp.send("Input.dispatchMouseEvent", {
    type: "mouseReleased",
    x: x + dx,
    y: y + dy,
    clickCount: 1,
    buttons: 0,
    ...pen,
  });
  await cdp.detach();
}

/** Records the pointer types of pointerdown events on the page (which device swiped). */
export async function recordPointerTypes(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __pointerTypes: string[] };
    w.__pointerTypes = [];
    document.addEventListener("pointerdown", (e) => w.__pointerTypes.push(e.pointerType), true);
  });
}

export function pointerTypes(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __pointerTypes: string[] }).__pointerTypes);
}

/** Before the app loads: every oscillator's frequency and start time is recorded. */
export async function spyOnChime(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const notes: Array<{ frequency: number; at: number }> = [];
    (window as unknown as { __chime: typeof notes }).__chime = notes;
    const original = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      const oscillator = original.call(this);
      const setValueAtTime = oscillator.frequency.setValueAtTime.bind(oscillator.frequency);
      oscillator.frequency.setValueAtTime = (value: number, at: number) => {
        notes.push({ frequency: value, at });
        return setValueAtTime(value, at);
      };
      return oscillator;
    };
  });
}

export function chimeNotes(page: Page): Promise<Array<{ frequency: number; at: number }>> {
  return page.evaluate(
    () => (window as unknown as { __chime: Array<{ frequency: number; at: number }> }).__chime,
  );
}

/** Runs a sync of the signed-in person's accounts now (the app's Sync button's call). */
export async function syncNow(page: Page): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem("sessionToken"));
  const res = await page.request.post("/api/emails/auto-sync", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(202);
}
