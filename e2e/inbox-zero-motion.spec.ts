import type { Page } from "@playwright/test";
import { acceptCookies } from "./dashboard-fixtures.ts";
import { expect, test } from "./support/auth.ts";
import { mode, remaining, startInboxZero, topCard } from "./support/inbox-zero.ts";
import { signedInWithMail } from "./support/reader-mail.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

/** Counts every animation the page starts from now on: Web Animations calls, CSS animations and transitions. */
async function countAnimations(page: Page) {
  await page.evaluate(() => {
    const seen = { script: 0, css: 0 };
    (window as unknown as { animationsSeen: typeof seen }).animationsSeen = seen;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args: Parameters<typeof animate>) {
      seen.script += 1;
      return animate.apply(this, args);
    };
    for (const type of ["animationstart", "transitionrun"])
      document.addEventListener(type, () => (seen.css += 1), true);
  });
  return () =>
    page.evaluate(
      () => (window as unknown as { animationsSeen: { script: number; css: number } }).animationsSeen,
    );
}

for (const motion of ["reduce", "no-preference"] as const) {
  test(`prefers-reduced-motion: ${motion}: cards and the celebration ${motion === "reduce" ? "do not move" : "animate"}`, async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: motion });
    await signedInWithMail(page, [
      { from: { name: "Ana", address: "ana@example.org" }, subject: "Motion one", text: "One." },
      { from: { name: "Ben", address: "ben@example.org" }, subject: "Motion two", text: "Two." },
    ]);
    await startInboxZero(page);
    await expect(remaining(page)).toHaveText("2 emails to go");
    const seen = await countAnimations(page);

    // A key action (the card flies out), a short drag that snaps back, then the last one: the celebration.
    await page.keyboard.press("s");
    await expect(remaining(page)).toHaveText("1 email to go");
    const box = await topCard(page).boundingBox();
    if (!box) throw new Error("no card");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(topCard(page)).toContainText("Motion one");
    await page.keyboard.press("e");
    const celebration = page.getByTestId("inbox-zero-celebration");
    await expect(celebration).toBeVisible();
    await expect(mode(page)).toBeHidden();
    const counts = await seen();
    const running = await celebration.evaluate((el) => el.getAnimations({ subtree: true }).length);
    if (motion === "reduce") {
      expect(counts).toEqual({ script: 0, css: 0 });
      expect(running).toBe(0);
      // It still goes after 4 s, without a fade.
      await expect(celebration).toBeHidden({ timeout: 7_000 });
    } else {
      // The fly-out and the snap-back are scripted, the celebration's entrance is CSS.
      expect(counts.script).toBeGreaterThanOrEqual(2);
      expect(counts.css + running).toBeGreaterThan(0);
    }
  });
}
