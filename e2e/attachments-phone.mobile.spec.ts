import { readFileSync } from "node:fs";
import { attachmentMail, sha256 } from "./attachments-mail.ts";
import { acceptCookies } from "./dashboard-fixtures.ts";
import { expect, test } from "./support/auth.ts";
import { emailOf, openEmail, signedInWithMail } from "./support/reader-mail.ts";

// The phone project: a 360 x 740 touch screen.
test.beforeEach(async ({ page }) => acceptCookies(page));

test("on a phone the attachments fit the screen, download byte for byte and preview", async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  const subject = "Q3 numbers on the go";
  const mail = attachmentMail("robin@mailwise.test", subject, [
    {
      filename: `${"Quarterly planning notes ".repeat(12)}final.pdf`,
      mimeType: "application/pdf",
      bytes: Buffer.from("x"),
    },
  ]);
  const { emails } = await signedInWithMail(page, [{ raw: mail.raw, subject }], "gmail");
  const reader = await openEmail(page, emailOf(emails, subject));
  const list = reader.getByRole("region", { name: "Attachments" });
  await expect(list.getByTestId("attachment")).toHaveCount(4);
  await list.scrollIntoViewIfNeeded();
  // Nothing wider than the screen.
  const overflow = await page.evaluate(
    () =>
      [...document.querySelectorAll("[data-testid=attachment] *")].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > window.innerWidth + 0.5 || r.left < -0.5);
      }).length,
  );
  expect(overflow).toBe(0);
  await page.screenshot({ path: testInfo.outputPath("attachments-phone-list.png") });

  const started = page.waitForEvent("download");
  await list.getByRole("button", { name: "Download Q3 Budget.pdf", exact: true }).click();
  const file = await started;
  expect(file.suggestedFilename()).toBe("Q3 Budget.pdf");
  expect(sha256(readFileSync(await file.path()))).toBe(sha256(mail.pdf.bytes));
  await expect(list.getByRole("button", { name: "Download Q3 Budget.pdf", exact: true })).toHaveText(
    "Download",
  );
  await page.screenshot({ path: testInfo.outputPath("attachments-phone-downloaded.png") });

  await list.getByRole("button", { name: "Preview Q3 Budget.pdf", exact: true }).click();
  const preview = page.getByRole("dialog", { name: "Q3 Budget.pdf" });
  await expect(preview.getByRole("img", { name: "Page 1 of 1" })).toBeVisible({ timeout: 15_000 });
  const box = await preview.getByRole("img", { name: "Page 1 of 1" }).boundingBox();
  expect(box?.width ?? 0).toBeLessThanOrEqual(360);
  await page.screenshot({ path: testInfo.outputPath("attachments-phone-preview.png") });
  await preview.getByRole("button", { name: "Close preview" }).click();
  await expect(preview).toBeHidden();
});
