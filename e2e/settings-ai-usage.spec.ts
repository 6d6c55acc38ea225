/** Issue 13.4: Settings shows the person's AI usage, counted on the server. */
import { acceptCookies } from "./dashboard-fixtures.ts";
import { expect, test } from "./support/auth.ts";
import { emailOf, signedInWithMail } from "./support/reader-mail.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

test("Settings > AI usage counts today's AI requests; the local engine has no call limit", async ({
  page,
}) => {
  const subject = "Budget figures for Friday";
  const { emails } = await signedInWithMail(page, [
    {
      from: { name: "Priya", address: "priya@acme-corp.example" },
      subject,
      text: "Can you send them by Friday?",
    },
  ]);
  const openSettings = async () => {
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Connected accounts" });
    const section = dialog.getByRole("region", { name: "AI usage" });
    await expect(section).toBeVisible();
    return { dialog, section };
  };
  let { dialog, section } = await openSettings();
  await expect(section.getByRole("definition")).toHaveText(["0"]);
  await expect(section).toContainText(
    "The built-in local engine answers on this server and has no call limit.",
  );
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Two drafting requests, as the AI Insights panel makes them.
  const token = await page.evaluate(() => localStorage.getItem("sessionToken"));
  for (const responseType of ["professional", "brief"]) {
    const answer = await page.request.post(`/api/agent/response/${emailOf(emails, subject).id}`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { responseType },
    });
    expect(answer.status()).toBe(200);
  }
  ({ dialog, section } = await openSettings());
  await expect(section.getByRole("definition")).toHaveText(["2"]);
});
