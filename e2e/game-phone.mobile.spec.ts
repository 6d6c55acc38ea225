/**
 * Issue 34, item 4, on a 360 px phone: a leaderboard row shows its whole status flag, the streak
 * and the badges; achievements and the leaderboard draw their pictures as SVG, never emoji (which
 * show as empty boxes without a colour-emoji font, as in Debian's Chromium).
 */
import type { Locator } from "@playwright/test";
import { acceptCookies } from "./dashboard-fixtures.ts";
import { expect, test } from "./support/auth.ts";
import { signedInWithMail } from "./support/reader-mail.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

/** On the screen and not clipped by any box around it (a truncated name cuts "Founding Member"). */
async function expectFullyShown(locator: Locator, what: string) {
  await expect(locator, what).toBeVisible();
  const clippedBy = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.right > window.innerWidth + 0.5) return "the screen";
    if (el.scrollWidth > el.clientWidth + 1) return "itself";
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (getComputedStyle(p).overflowX === "visible") continue;
      const b = p.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5) return `${p.tagName} ${p.className}`;
    }
    return null;
  });
  expect(clippedBy, `${what} is clipped`).toBeNull();
}

async function expectNoEmoji(dialog: Locator) {
  const text = await dialog.evaluate((el) => el.textContent ?? "");
  expect(text.match(/\p{Extended_Pictographic}/gu) ?? [], "emoji in the dialog's text").toEqual([]);
}

test("the leaderboard on a 360 px phone: the whole 'Founding Member', the streak and the badges; no emoji", async ({
  page,
}) => {
  expect(page.viewportSize()?.width).toBe(360);
  await signedInWithMail(page, [
    { from: { name: "Ana", address: "ana.phone@example.org" }, subject: "Phone rank", text: "One." },
  ]);
  await page.getByRole("button", { name: "Leaderboard", exact: true }).first().click();
  const dialog = page.getByRole("dialog", { name: "Leaderboard Rankings" });
  await expect(dialog).toBeVisible();
  // Every new person in the e2e stack joins before the founding cut-off.
  const mine = dialog.locator('[data-testid="ranking-row"][aria-current="true"]').first();
  await expect(mine).toContainText("(you)");
  await expectFullyShown(mine.getByText("Founding Member", { exact: true }), "the 'Founding Member' flag");
  const streak = mine.locator('[title="Current inbox-zero streak"]');
  await expectFullyShown(streak, "the streak");
  await expect(streak).toHaveText(/^\d+ days?$/);
  const badges = mine.locator('[title="Badges earned"]');
  await expectFullyShown(badges, "the badges");
  await expect(badges).toHaveText(/^2 badges$/);
  // The podium's pictures are drawn: a crown on each first place (people in the shared e2e stack
  // can tie for it), a picture on every card.
  const topCards = dialog.locator('[data-testid="top-card"]');
  await expect(topCards.first()).toBeVisible();
  const firsts = await topCards.filter({ hasText: "1st Place" }).count();
  expect(firsts).toBeGreaterThan(0);
  await expect(topCards.locator('svg[data-pictogram="crown"]')).toHaveCount(firsts);
  await expect(topCards.locator("svg[data-pictogram]")).toHaveCount(await topCards.count());
  await expectNoEmoji(dialog);
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Achievements", exact: true }).first().click();
  const achievements = page.getByRole("dialog", { name: "Achievement Badges" });
  await expect(achievements).toBeVisible();
  const earned = achievements.getByRole("tabpanel");
  await expect(earned.getByRole("button")).toHaveCount(2);
  await expect(earned.locator("svg[data-pictogram]")).toHaveCount(2);
  await expectNoEmoji(achievements);
  await achievements.getByRole("tab", { name: /^Available/ }).click();
  await expect(achievements.getByRole("tabpanel").locator("svg[data-pictogram]")).toHaveCount(18);
  await expectNoEmoji(achievements);
});
