import { createIdentity, expect, signIn, storedToken, test, toastWith } from "./support/auth.ts";

// Moving the server clock expires every session in the stack, so this file runs in its own
// Playwright project after all others (playwright.config.ts).
test.describe.configure({ timeout: 90_000 });

test("a session that expired on the server leads to /login with the 'Session Expired' toast", async ({
  page,
  request,
}) => {
  const dana = await createIdentity("gmail", "Dana");
  await signIn(page, dana.email);

  // The test hook answers only a signed-in caller.
  const res = await request.post("/api/_test/clock", {
    data: { advanceSeconds: 31 * 24 * 60 * 60 },
    headers: { authorization: `Bearer ${await storedToken(page)}` },
  });
  expect(res.ok()).toBe(true);

  // The next API call meets the expired session. The dashboard's own polling may get there first;
  // a reload here could then wipe the toast it already showed, so ask for a refetch instead.
  await page.evaluate(() => window.dispatchEvent(new Event("refreshEmails")));
  await expect(page).toHaveURL(/\/login$/);
  const toast = toastWith(page, "Session Expired");
  await expect(toast).toContainText("Your session has expired. Please log in again.");
  expect(await storedToken(page)).toBeNull();
  // The reason is used once: a reload shows no toast again.
  await page.reload();
  await expect(page.getByRole("button", { name: "Continue with Gmail" })).toBeVisible();
  await expect(page.getByText("Session Expired")).toHaveCount(0);
});
