import type { Page } from "@playwright/test";
import { expect, test, toastWith } from "./support/auth.ts";
import {
  emailOf,
  expectAccessibleDialog,
  labelsOf,
  openEmail,
  signedInWithMail,
} from "./support/reader-mail.ts";

const SENDER = { name: "Dana Field", address: "dana.field@example.org" };

interface Entry {
  userId: string;
  rank: number;
  displayName: string;
}
interface Board {
  topUsers: Entry[];
  totalUsers: number;
  currentUser: Entry;
}

const place = (rank: number) =>
  rank === 1 ? "1st Place" : rank === 2 ? "2nd Place" : rank === 3 ? "3rd Place" : `#${rank}`;

/** Opens the leaderboard and returns the very answer the dialog renders. */
async function openLeaderboard(page: Page): Promise<Board> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/leaderboard");
  await page.getByRole("button", { name: "Leaderboard", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Leaderboard Rankings" })).toBeVisible();
  return (await (await answer).json()) as Board;
}

test("achievements: earned of total, tiers, tabs, badge details, and a toast when a badge is earned", async ({
  page,
}) => {
  const subject = "Last unread mail";
  const { identity, emails, delivered } = await signedInWithMail(page, [
    { from: SENDER, subject, text: "The only unread mail." },
  ]);

  await page.getByRole("button", { name: "Achievements", exact: true }).click();
  let dialog = page.getByRole("dialog", { name: "Achievement Badges" });
  await expect(dialog).toBeVisible();
  // A new person before the founding cut-off: the two early badges only.
  await expect(dialog.getByTestId("badges-earned")).toHaveText("2");
  await expect(dialog.getByText("of 20 badges earned")).toBeVisible();
  for (const tier of ["Bronze: 0", "Silver: 0", "Gold: 1", "Platinum: 1"]) {
    await expect(dialog.getByText(tier, { exact: true })).toBeVisible();
  }
  await expect(dialog.getByRole("tab", { name: "Earned (2)" })).toHaveAttribute("aria-selected", "true");
  await expect(dialog.getByRole("button", { name: /Founding Member/ })).toBeVisible();
  await dialog.getByRole("tab", { name: "Available (18)" }).click();
  await dialog.getByRole("button", { name: /Inbox Zero Master/ }).click();
  const detail = page.getByRole("dialog", { name: "Inbox Zero Master" });
  await expect(detail).toBeVisible();
  await expect(detail.getByText("0 / 1 (0%)")).toBeVisible();
  await expect(detail.getByText("Not earned yet")).toBeVisible();
  await expectAccessibleDialog(page, "[data-testid=badge-detail]");
  await detail.getByRole("button", { name: "Close" }).last().click();
  await expect(detail).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Reading the last unread mail and archiving it (both written to the provider): inbox zero.
  const reader = await openEmail(page, emailOf(emails, subject));
  await expect(toastWith(page, "Badge earned: Inbox Zero Master")).toBeVisible({ timeout: 15_000 });
  await reader.getByRole("button", { name: "Archive" }).click();
  const providerId = delivered.get(subject)?.id ?? "";
  await expect.poll(() => labelsOf(identity, providerId), { timeout: 10_000 }).not.toContain("INBOX");

  await page.getByRole("button", { name: "Achievements", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Achievement Badges" });
  await expect(dialog.getByRole("tab", { name: "Earned (3)" })).toBeVisible();
  await dialog.getByRole("button", { name: /Inbox Zero Master/ }).click();
  await expect(
    page.getByRole("dialog", { name: "Inbox Zero Master" }).getByText(/^Earned on /),
  ).toBeVisible();
});

test("achievements without data say so", async ({ page }) => {
  await signedInWithMail(page, []);
  await page.route("**/api/badges/progress", (route) => route.fulfill({ status: 500, body: "down" }));
  await page.reload();
  await page.getByRole("button", { name: "Achievements", exact: true }).click();
  await expect(
    page.getByRole("dialog", { name: "Achievement Badges" }).getByText("No badge data available"),
  ).toBeVisible();
});

test("leaderboard: podium labels and '#n' as answered, My Profile, Edit Name, hiding in Settings", async ({
  page,
}) => {
  const { identity } = await signedInWithMail(page, []);
  const board = await openLeaderboard(page);
  const dialog = page.getByRole("dialog", { name: "Leaderboard Rankings" });
  await expect(dialog.getByRole("tab", { name: "Global Rankings" })).toHaveAttribute("aria-selected", "true");
  expect(JSON.stringify(board)).not.toContain("@");
  expect(board.currentUser.displayName).not.toContain(identity.name.split(" ")[0] ?? "");

  const cards = dialog.getByTestId("top-card");
  await expect(cards).toHaveCount(Math.min(3, board.topUsers.length));
  await expect(cards.first()).toContainText("1st Place");
  for (const [i, e] of board.topUsers.slice(0, 3).entries()) {
    await expect(cards.nth(i)).toContainText(place(e.rank));
    await expect(cards.nth(i)).toContainText(e.displayName);
  }
  const rows = dialog.getByTestId("ranking-row");
  await expect(rows.first()).toBeVisible();
  for (const [i, e] of board.topUsers.slice(0, 6).entries()) {
    await expect(rows.nth(i)).toContainText(place(e.rank));
  }
  await expect(
    dialog.getByText(
      `${board.totalUsers.toLocaleString("en-US")} ${board.totalUsers === 1 ? "person" : "people"} ranked`,
    ),
  ).toBeVisible();

  await dialog.getByRole("tab", { name: "My Profile" }).click();
  await expect(dialog.getByTestId("my-display-name")).toHaveText(board.currentUser.displayName);
  await expect(dialog.getByText("Founding Member").first()).toBeVisible();
  await dialog.getByRole("button", { name: "Edit Name" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Name" });
  const input = edit.getByLabel("Display name");
  await input.fill("   ");
  await expect(edit.getByRole("button", { name: "Save" })).toBeDisabled();
  await input.fill("robin@example.com");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByRole("alert")).toContainText("email address");
  // Issue 34.2: a staff-like name is refused with the server's words.
  await input.fill("Mailwise Admin");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByRole("alert")).toHaveText("Display name must not suggest Mailwise staff");
  await input.fill("  Inbox Ninja  ");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(dialog.getByTestId("my-display-name")).toHaveText("Inbox Ninja");
  await expectAccessibleDialog(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Settings: hide from the global ranking.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const settings = page.getByRole("dialog", { name: "Connected accounts" });
  const show = settings.getByLabel(/Show me on the global leaderboard/);
  await expect(show).toBeChecked();
  await show.uncheck();
  await expect(show).not.toBeChecked();
  await expect(show).toBeEnabled();
  await page.keyboard.press("Escape");
  const hidden = await openLeaderboard(page);
  expect(hidden.topUsers.map((e) => e.userId)).not.toContain(board.currentUser.userId);
  await expect(dialog.getByText("Your place")).toBeVisible();
});

test("leaderboard failure shows 'Unable to load leaderboard'; the answer is refetched every 60 s", async ({
  page,
}) => {
  await page.clock.install();
  await signedInWithMail(page, []);
  let calls = 0;
  let fail = true;
  await page.route("**/api/leaderboard", async (route) => {
    calls++;
    if (fail) await route.fulfill({ status: 500, body: "down" });
    else await route.continue();
  });
  await page.getByRole("button", { name: "Leaderboard", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Leaderboard Rankings" });
  await expect(dialog.getByText("Unable to load leaderboard")).toBeVisible();
  fail = false;
  const before = calls;
  await page.clock.fastForward(60_000);
  await expect.poll(() => calls).toBeGreaterThan(before);
  await expect(dialog.getByRole("tab", { name: "Global Rankings" })).toBeVisible();
});
