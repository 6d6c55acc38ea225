import { expect, test } from "./support/auth.ts";
import { api, emailOf, openEmail, signedInWithMail } from "./support/reader-mail.ts";

const SENDER = { name: "Dana Field", address: "dana.field@example.org" };

// The reader shows the list's copy of an email until GET /api/emails/:id answers. Pressing j
// before that answer used to leave the first email unread for good: the mark-read waited for the
// full copy, and by then the reader showed the next email. Right after sign-in (a busy server)
// that answer is slow enough for a person, or a test, to move on.
test("an email the reader moved past before its details loaded is still marked read", async ({ page }) => {
  const { emails } = await signedInWithMail(page, [
    { from: SENDER, subject: "Older note", text: "The older one." },
    { from: SENDER, subject: "Newer note", text: "The newer one." },
  ]);
  const newer = emailOf(emails, "Newer note");
  expect((await api<{ unreadCount: number }>(page, "/api/emails/stats")).unreadCount).toBe(2);

  // Hold the newer email's details until the reader has moved on to the older one.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/api/emails/${newer.id}`, async (route) => {
    if (route.request().method() === "GET") await held;
    await route.fallback();
  });

  await openEmail(page, newer);
  await page.keyboard.press("j");
  await expect(page.getByRole("dialog", { name: "Older note" })).toBeVisible();
  release();

  await expect
    .poll(async () => (await api<{ unreadCount: number }>(page, "/api/emails/stats")).unreadCount)
    .toBe(0);
});
