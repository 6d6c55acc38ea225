import { watchApiIdle } from "./support/api-idle.ts";
import { expect, test, toastWith } from "./support/auth.ts";
import {
  emailOf,
  expectAccessibleDialog,
  GMAIL_FLAG_LABEL,
  labelsOf,
  mailboxMessages,
  openEmail,
  signedInWithMail,
} from "./support/reader-mail.ts";

const SENDER = { name: "Dana Field", address: "dana.field@example.org" };

test("opening an unread email shows its headers and marks it read on the provider", async ({ page }) => {
  const subject = "Quarterly numbers";
  const { identity, emails, delivered } = await signedInWithMail(page, [
    { from: SENDER, subject, text: "The quarterly numbers are in.\nSee you Monday." },
  ]);
  const email = emailOf(emails, subject);
  expect(email.isRead).toBe(false);
  const providerId = delivered.get(subject)?.id ?? "";
  expect(await labelsOf(identity, providerId)).toContain("UNREAD");

  const dialog = await openEmail(page, email);
  await expect(dialog.getByText("From", { exact: true })).toBeVisible();
  await expect(dialog.getByText(`Dana Field <${SENDER.address}>`)).toBeVisible();
  await expect(dialog.getByText("To", { exact: true })).toBeVisible();
  await expect(dialog.getByText(identity.email)).toBeVisible();
  await expect(dialog.getByText("Date", { exact: true })).toBeVisible();
  await expect(dialog.getByText("The quarterly numbers are in.")).toBeVisible();

  // Marked read at once on the screen, then on the provider.
  await expect(dialog.getByText("Unread", { exact: true })).toBeHidden();
  await expect.poll(() => labelsOf(identity, providerId), { timeout: 10_000 }).not.toContain("UNREAD");
  await expectAccessibleDialog(page);

  // Read/unread is a real flag too.
  await dialog.getByRole("button", { name: "Mark as unread" }).click();
  await expect(dialog.getByText("Unread", { exact: true })).toBeVisible();
  await expect.poll(() => labelsOf(identity, providerId), { timeout: 10_000 }).toContain("UNREAD");
});

test("star, unstar and flag are written back to the provider", async ({ page }) => {
  const subject = "Contract draft";
  const { identity, emails, delivered } = await signedInWithMail(page, [
    // Gmail marked it important by itself: that is not the person's flag (issue 19.2).
    { from: SENDER, subject, text: "Please review the draft.", labelIds: ["INBOX", "UNREAD", "IMPORTANT"] },
  ]);
  const providerId = delivered.get(subject)?.id ?? "";
  const dialog = await openEmail(page, emailOf(emails, subject));
  await expect(dialog.getByRole("button", { name: "Flag", exact: true })).toHaveAttribute(
    "aria-pressed",
    "false",
  );

  await dialog.getByRole("button", { name: "Star", exact: true }).click();
  await expect(dialog.getByRole("button", { name: "Unstar" })).toHaveAttribute("aria-pressed", "true");
  await expect(dialog.getByRole("img", { name: "Starred" })).toBeVisible();
  await expect.poll(() => labelsOf(identity, providerId), { timeout: 10_000 }).toContain("STARRED");

  await dialog.getByRole("button", { name: "Unstar" }).click();
  await expect(dialog.getByRole("button", { name: "Star", exact: true })).toBeVisible();
  await expect.poll(() => labelsOf(identity, providerId), { timeout: 10_000 }).not.toContain("STARRED");

  // Gmail has no flag: Mailwise's flag is its own "Flagged by Mailwise" label, made on first use.
  await dialog.getByRole("button", { name: "Flag", exact: true }).click();
  await expect(dialog.getByRole("button", { name: "Unflag" })).toBeVisible();
  await expect.poll(() => labelsOf(identity, providerId), { timeout: 10_000 }).toContain(GMAIL_FLAG_LABEL);
  await dialog.getByRole("button", { name: "Unflag" }).click();
  await expect(dialog.getByRole("button", { name: "Flag", exact: true })).toBeVisible();
  await expect
    .poll(() => labelsOf(identity, providerId), { timeout: 10_000 })
    .not.toContain(GMAIL_FLAG_LABEL);
  // Gmail's own importance is left as Gmail set it.
  expect(await labelsOf(identity, providerId)).toContain("IMPORTANT");
});

test("archive and delete leave the inbox on the provider and close the reader; the progress bar uses the real counts", async ({
  page,
}) => {
  const { identity, emails, delivered } = await signedInWithMail(page, [
    { from: SENDER, subject: "Archive me", text: "Old news." },
    { from: { name: "Lee", address: "lee@example.net" }, subject: "Delete me", text: "Spam-ish." },
  ]);
  // Two unread inbox emails; opening one reads it: 1 of 2 handled, 1 unread, 100 - 1/2*100 = 50.
  const archived = emailOf(emails, "Archive me");
  let dialog = await openEmail(page, archived);
  await expect(dialog.getByText("Inbox Zero Progress", { exact: true })).toBeVisible();
  await expect(dialog.getByText("1 of 2", { exact: true })).toBeVisible();
  await expect(dialog.getByText("1 emails remaining")).toBeVisible();
  await expect(dialog.getByRole("progressbar", { name: "Inbox Zero Progress" })).toHaveAttribute(
    "aria-valuenow",
    "50",
  );
  await dialog.getByRole("button", { name: "Archive", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator(`[data-email-id="${archived.id}"]`)).toHaveCount(0);
  const archivedId = delivered.get("Archive me")?.id ?? "";
  await expect.poll(() => labelsOf(identity, archivedId), { timeout: 10_000 }).not.toContain("INBOX");

  // One email left in the inbox: no progress bar (the spec shows it only when total is more than 1).
  const deleted = emailOf(emails, "Delete me");
  dialog = await openEmail(page, deleted);
  await expect(dialog.getByText("Inbox Zero Progress", { exact: true })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog).toBeHidden();
  const deletedId = delivered.get("Delete me")?.id ?? "";
  await expect.poll(() => labelsOf(identity, deletedId), { timeout: 10_000 }).toContain("TRASH");
  expect((await mailboxMessages(identity, "INBOX")).map((m) => m.id)).not.toContain(deletedId);
});

test("body fallbacks: plain text, and 'No content available' for an empty message", async ({ page }) => {
  const raw = [
    `From: ${SENDER.name} <${SENDER.address}>`,
    "To: someone@example.com",
    "Subject: Empty body",
    "Date: Mon, 02 Mar 2026 10:00:00 +0000",
    "Message-ID: <empty-body@example.org>",
    "MIME-Version: 1.0",
    'Content-Type: text/plain; charset="UTF-8"',
    "",
    "",
  ].join("\r\n");
  const { emails } = await signedInWithMail(page, [
    { raw, subject: "Empty body" },
    { from: SENDER, subject: "Text only", text: "Line one\nLine two" },
  ]);
  let dialog = await openEmail(page, emailOf(emails, "Empty body"));
  await expect(dialog.getByText("No content available", { exact: true })).toBeVisible();
  await expect(dialog.locator("iframe")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Close" }).click();

  dialog = await openEmail(page, emailOf(emails, "Text only"));
  await expect(dialog.getByText(/Line one\s+Line two/)).toBeVisible();
  await expect(dialog.getByText("No content available")).toHaveCount(0);
});

test("a phone gets the reader as a full-screen sheet", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const { emails } = await signedInWithMail(page, [{ from: SENDER, subject: "On the go", text: "Hi!" }]);
  const dialog = await openEmail(page, emailOf(emails, "On the go"));
  const box = await dialog.boundingBox();
  expect(box?.width).toBe(360);
  expect(box?.height).toBe(740);
  await expect(dialog.getByRole("button", { name: "Reply", exact: true })).toBeInViewport();
});

test("a refused star is rolled back with an error toast", async ({ page }) => {
  const subject = "Flaky provider";
  const { emails } = await signedInWithMail(page, [{ from: SENDER, subject, text: "Hi" }]);
  const requests = watchApiIdle(page);
  const dialog = await openEmail(page, emailOf(emails, subject));
  await expect(dialog.getByText("Unread", { exact: true })).toBeHidden();
  // Opening marks it read; that PATCH must be done before PATCHes are refused below.
  await requests.idle();
  await page.route("**/api/emails/*", (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({
          status: 502,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "provider_unavailable", message: "Gmail is down" } }),
        })
      : route.fallback(),
  );
  await dialog.getByRole("button", { name: "Star", exact: true }).click();
  await expect(toastWith(page, "Error")).toContainText("Failed to star the email");
  await expect(dialog.getByRole("button", { name: "Star", exact: true })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
});
