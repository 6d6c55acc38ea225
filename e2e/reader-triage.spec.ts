import { expect, recordToasts, seenToasts, test } from "./support/auth.ts";
import { emailOf, labelsOf, mailboxMessages, openEmail, signedInWithMail } from "./support/reader-mail.ts";

const NEWS = { name: "Weekly Deals", address: "deals@shop.example" };

test("the 2nd archive from a sender offers Smart Archive; Archive All archives the rest", async ({
  page,
}) => {
  const subjects = ["Deal one", "Deal two", "Deal three", "Deal four"];
  const { identity, emails, delivered } = await signedInWithMail(page, [
    ...subjects.map((subject) => ({ from: NEWS, subject, text: `${subject} inside.` })),
    { from: { name: "Sam", address: "sam@example.com" }, subject: "Unrelated", text: "Hello" },
  ]);

  let dialog = await openEmail(page, emailOf(emails, "Deal one"));
  await dialog.getByRole("button", { name: "Archive", exact: true }).click();
  await expect(dialog).toBeHidden();
  // The first archive offers nothing.
  await expect(page.getByRole("alertdialog", { name: "Smart Archive Suggestion" })).toHaveCount(0);

  dialog = await openEmail(page, emailOf(emails, "Deal two"));
  await dialog.getByRole("button", { name: "Archive", exact: true }).click();
  const offer = page.getByRole("alertdialog", { name: "Smart Archive Suggestion" });
  await expect(offer).toBeVisible();
  await expect(offer).toContainText("Weekly Deals");
  await expect(offer).toContainText("2 emails");
  await expect(offer.getByRole("button", { name: "Not now" })).toBeVisible();
  await offer.getByRole("button", { name: "Archive All" }).click();
  await expect(offer).toBeHidden();

  for (const subject of subjects) {
    const id = delivered.get(subject)?.id ?? "";
    await expect
      .poll(() => labelsOf(identity, id), { timeout: 10_000, message: subject })
      .not.toContain("INBOX");
    await expect(page.locator(`[data-email-id="${emailOf(emails, subject).id}"]`)).toHaveCount(0);
  }
  const inbox = (await mailboxMessages(identity, "INBOX")).map((m) => m.subject);
  expect(inbox).toEqual(["Unrelated"]);
});

test("Not now keeps the sender's other mail", async ({ page }) => {
  const { identity, emails } = await signedInWithMail(page, [
    { from: NEWS, subject: "Promo A", text: "a" },
    { from: NEWS, subject: "Promo B", text: "b" },
    { from: NEWS, subject: "Promo C", text: "c" },
  ]);
  for (const subject of ["Promo A", "Promo B"]) {
    const dialog = await openEmail(page, emailOf(emails, subject));
    await dialog.getByRole("button", { name: "Archive", exact: true }).click();
  }
  const offer = page.getByRole("alertdialog", { name: "Smart Archive Suggestion" });
  await offer.getByRole("button", { name: "Not now" }).click();
  await expect(offer).toBeHidden();
  await expect
    .poll(async () => (await mailboxMessages(identity, "INBOX")).map((m) => m.subject))
    .toEqual(["Promo C"]);
});

test("Unsubscribe runs in the background: 'Processing...', then the outcome", async ({ page }) => {
  const { identity, emails } = await signedInWithMail(page, [
    {
      from: NEWS,
      subject: "Newsletter 12",
      text: "This week's deals.",
      headers: { "List-Unsubscribe": "<mailto:leave@shop.example?subject=unsubscribe>" },
    },
  ]);
  const dialog = await openEmail(page, emailOf(emails, "Newsletter 12"));
  const refreshed = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        window.addEventListener("refreshEmails", () => resolve(performance.now() - start), { once: true });
      }),
  );
  await recordToasts(page);
  await dialog.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(dialog.getByRole("button", { name: "Processing..." })).toBeDisabled();
  await expect.poll(() => seenToasts(page)).toContainEqual(expect.stringContaining("Unsubscribe Processing"));
  const after = await refreshed;
  expect(after).toBeGreaterThan(1500);
  expect(after).toBeLessThan(4000);
  await expect(dialog.getByText(/^Unsubscribed/)).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByRole("button", { name: "Unsubscribe" })).toBeEnabled();
  // The mailto route sends the request from the user's own mailbox.
  await expect
    .poll(async () => (await mailboxMessages(identity, "SENT")).map((m) => m.to))
    .toEqual([expect.stringContaining("leave@shop.example")]);
});

test("an unsubscribe that needs the sender's page shows it as a link", async ({ page }) => {
  const { emails } = await signedInWithMail(page, [
    {
      from: NEWS,
      subject: "Newsletter 13",
      text: "More deals.",
      headers: { "List-Unsubscribe": "<https://shop.example/unsubscribe?u=42>" },
    },
  ]);
  const dialog = await openEmail(page, emailOf(emails, "Newsletter 13"));
  await recordToasts(page);
  await dialog.getByRole("button", { name: "Unsubscribe" }).click();
  await expect.poll(() => seenToasts(page)).toContainEqual(expect.stringContaining("Unsubscribe Processing"));
  const link = dialog.getByRole("link", { name: "Open the unsubscribe page" });
  await expect(link).toHaveAttribute("href", "https://shop.example/unsubscribe?u=42");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
});

test("a refused unsubscribe request shows 'Unsubscribe Failed' with the server's message", async ({
  page,
}) => {
  const { emails } = await signedInWithMail(page, [
    {
      from: NEWS,
      subject: "Newsletter 14",
      text: "Deals.",
      headers: { "List-Unsubscribe": "<mailto:leave@shop.example>" },
    },
  ]);
  await page.route("**/api/emails/unsubscribe", (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "unavailable", message: "The unsubscribe service is down." } }),
    }),
  );
  const dialog = await openEmail(page, emailOf(emails, "Newsletter 14"));
  await recordToasts(page);
  await dialog.getByRole("button", { name: "Unsubscribe" }).click();
  await expect
    .poll(() => seenToasts(page))
    .toContainEqual(expect.stringMatching(/Unsubscribe Failed.*The unsubscribe service is down\./s));
  await expect(dialog.getByRole("button", { name: "Unsubscribe" })).toBeEnabled();
});
