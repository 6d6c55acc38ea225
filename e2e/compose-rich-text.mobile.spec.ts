/**
 * Rich-text compose on a phone (issue 36): the toolbar wraps inside the sheet, every format
 * button and the Message field are reachable, and formatting works by touch. Saves a screenshot.
 */
import { expect, test } from "./support/auth.ts";
import { signedInWithMail } from "./support/reader-mail.ts";

test("compose on a phone: toolbar and Message fit the sheet, bold and a list by touch", async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  await signedInWithMail(page, [
    { from: { name: "Ola Berg", address: "ola.berg@example.org" }, subject: "Hi", text: "Hi" },
  ]);
  await page.getByRole("button", { name: "Compose Email" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Compose Email" });
  const message = dialog.getByRole("textbox", { name: "Message" });
  await message.click();
  await message.pressSequentially("Groceries for ");
  await dialog.getByRole("button", { name: "Bold" }).click();
  await message.pressSequentially("Friday");
  await dialog.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.press("Enter");
  await dialog.getByRole("button", { name: "Bulleted list" }).click();
  await message.pressSequentially("milk");
  await expect(message.locator("strong")).toHaveText("Friday");
  await expect(message.locator("ul > li")).toHaveText(["milk"]);

  const width = page.viewportSize()?.width ?? 0;
  for (const name of ["Bold", "Italic", "Underline", "Link", "Bulleted list", "Numbered list", "Quote"]) {
    const box = await dialog.getByRole("button", { name, exact: true }).boundingBox();
    expect(box, name).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(width);
    expect(box?.height ?? 0, name).toBeGreaterThanOrEqual(36);
  }
  await page.screenshot({ path: info.outputPath("compose-rich-text-phone.png") });
});
