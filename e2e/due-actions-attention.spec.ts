import type { Page } from "@playwright/test";
import {
  consentInPopup,
  createIdentity,
  EMULATOR_URL,
  expect,
  startLink,
  storedToken,
  test,
  toastWith,
} from "./support/auth.ts";
import { mailboxMessages, signedInWithMail } from "./support/reader-mail.ts";

/**
 * A scheduled action that needs the person (issue 37, decision 0073): a held mail whose Gmail grant
 * was revoked is not given up; the dashboard says it waits and offers Reconnect; reconnected, the
 * mail goes, exactly once. The server clock is moved past the Undo delay.
 */
test.describe.configure({ timeout: 90_000 });

async function moveServerClock(page: Page, seconds: number): Promise<void> {
  const res = await page.request.post("/api/_test/clock", {
    data: { advanceSeconds: seconds },
    headers: { authorization: `Bearer ${await storedToken(page)}` },
  });
  expect(res.ok()).toBe(true);
}

test("a revoked account: the held mail waits, the dashboard asks to reconnect; reconnected, it goes once", async ({
  page,
}) => {
  const { identity } = await signedInWithMail(page, [
    { from: { name: "Ada", address: "ada@example.org" }, subject: "Hi", text: "Hi" },
  ]);
  const recipient = await createIdentity("gmail", "Wren");
  const subject = `Waits for you ${Date.now()}`;
  const received = async () => (await mailboxMessages(recipient)).filter((m) => m.subject === subject).length;

  await page.getByRole("button", { name: "Compose Email" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Compose Email" });
  await dialog.getByLabel("To").fill(recipient.email);
  await dialog.getByLabel("Subject").fill(subject);
  await dialog.getByLabel("Message").fill("Sent once I reconnect.");
  await dialog.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toastWith(page, "Sending…")).toBeVisible();

  const revoked = await fetch(`${EMULATOR_URL}/_admin/tokens/revoke`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: identity.email, provider: "google" }),
  });
  expect(revoked.status).toBe(200);
  await moveServerClock(page, 11);

  // The banner reads the list every 30 s: once the server says the mail waits, a reload shows it.
  await expect
    .poll(
      async () => {
        const res = await page.request.get("/api/due-actions/failed", {
          headers: { authorization: `Bearer ${await storedToken(page)}` },
        });
        const list = (await res.json()) as { items: Array<{ status: string }> };
        return list.items.map((item) => item.status);
      },
      { timeout: 20_000 },
    )
    .toEqual(["waiting"]);
  await page.reload();
  const banner = page.getByRole("region", { name: "Scheduled actions that need you" });
  await expect(banner).toContainText(
    `Send “${subject}” to ${recipient.email} is waiting: reconnect your account and it runs.`,
  );
  expect(await received()).toBe(0);

  await banner.getByRole("button", { name: "Reconnect" }).click();
  const accounts = page.getByRole("dialog", { name: "Connected accounts" });
  await expect(accounts).toBeVisible();
  const row = accounts.getByRole("listitem", { name: identity.email });
  await consentInPopup(
    page,
    () => startLink(page, () => row.getByRole("button", { name: "Reconnect" }).click(), "gmail"),
    identity.email,
  );
  await expect.poll(received, { timeout: 20_000 }).toBe(1);
  await page.waitForTimeout(2_000);
  expect(await received()).toBe(1);
  await page.reload();
  await expect(page.getByRole("heading", { name: /Welcome/ })).toBeVisible();
  await expect(banner).toBeHidden();
});
