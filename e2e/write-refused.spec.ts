import { EMULATOR_URL, expect, test, toastWith } from "./support/auth.ts";
import { emailOf, openEmail, signedInWithMail } from "./support/reader-mail.ts";

const SENDER = { name: "Dana Field", address: "dana.field@example.org" };

async function admin(path: string, body: unknown): Promise<void> {
  const r = await fetch(`${EMULATOR_URL}/_admin/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
}

// Decision 0086: an archive is answered before Gmail writes it back. When Gmail then refuses it
// (here: the grant was revoked), the live stream says so, the email comes back, and the person
// reads the same toast a refused request gives.
test("an archive the provider refuses after the answer comes back, with 'Failed to archive the email'", async ({
  page,
}) => {
  const { identity, emails } = await signedInWithMail(page, [
    { from: SENDER, subject: "Keep me here", text: "Still needed." },
    { from: SENDER, subject: "Another one", text: "Also here." },
  ]);
  await admin("tokens/revoke", { email: identity.email, provider: "google" });
  await admin("tokens/expire", { email: identity.email });

  const email = emailOf(emails, "Keep me here");
  const row = page.locator(`[data-email-id="${email.id}"]`);
  const dialog = await openEmail(page, email);
  await dialog.getByRole("button", { name: "Archive", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(toastWith(page, "Error")).toContainText("Failed to archive the email", { timeout: 15_000 });
  await expect(row).toHaveCount(1);
});
