/** Issue 35 on a phone (360 x 740): conversation view on and off, the conversation read whole. */
import { acceptCookies } from "./dashboard-fixtures.ts";
import { expect, openDashboardWith, test } from "./support/auth.ts";
import { conversationMailbox, LAST_TEXT, SUBJECT } from "./support/conversation-mail.ts";
import { expectAccessibleDialog } from "./support/reader-mail.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

test("conversation view on and off at 360 px: rows, the setting and the reader fit the screen", async ({
  page,
}, testInfo) => {
  // A mailbox synced from the emulator, axe and five screenshots: more than the default 30 s on two shared cores.
  test.slow();
  const mail = await conversationMailbox(page, "gmail");
  await openDashboardWith(page, mail.sessionToken);
  const rows = page.locator("#inbox [data-email-id]");
  const shot = async (name: string) => {
    const path = testInfo.outputPath(`${name}.png`);
    await page.screenshot({ path });
    await testInfo.attach(name, { path, contentType: "image/png" });
  };
  // The inbox list at the top of the screen, so the screenshot shows its rows.
  const showInbox = () => page.locator("#inbox").evaluate((el) => el.scrollIntoView({ block: "start" }));
  const noSideways = async () =>
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);

  await expect(rows).toHaveCount(1);
  await showInbox();
  await expect(rows.first().getByTestId("row-who")).toHaveText("Dana, me (3)");
  await noSideways();
  await shot("1-conversation-row");

  await rows.first().click();
  const reader = page.getByRole("dialog", { name: SUBJECT });
  await expect(reader.getByRole("article")).toContainText(LAST_TEXT);
  expect((await reader.boundingBox())?.width).toBe(360);
  await shot("2-conversation-reader");
  await expectAccessibleDialog(page);
  await reader.getByRole("button", { name: "Close" }).first().click();

  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const settings = page.getByRole("dialog", { name: "Connected accounts" });
  const toggle = settings.getByRole("checkbox", { name: /Conversation view/ });
  await toggle.scrollIntoViewIfNeeded();
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await shot("3-setting-off");
  await page.keyboard.press("Escape");

  await expect(rows).toHaveCount(2);
  await showInbox();
  await noSideways();
  await shot("4-message-rows");

  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await settings.getByRole("checkbox", { name: /Conversation view/ }).click();
  await page.keyboard.press("Escape");
  await expect(rows).toHaveCount(1);
  await showInbox();
  await shot("5-conversation-row-again");
});
