/**
 * Sign-in helpers for the browser tests: fresh emulator identities, the consent screen, the
 * login popup, and a lock that keeps server-clock jumps away from tests holding a session.
 */
import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";

export const EMULATOR_URL = (
  process.env.E2E_EMULATOR_URL ?? `http://127.0.0.1:${process.env.E2E_EMULATOR_PORT ?? "4290"}`
).replace(/\/$/, "");

export type MailProvider = "gmail" | "outlook";

export interface TestIdentity {
  provider: MailProvider;
  email: string;
  name: string;
}

export const PROVIDER_NAMES: Record<MailProvider, string> = { gmail: "Gmail", outlook: "Outlook" };

export function providerOf(email: string): MailProvider {
  return /@(outlook|hotmail|live)\./i.test(email) ? "outlook" : "gmail";
}

/**
 * A person only this test signs in as, so parallel tests never share a Mailwise user.
 * Uses the emulator's admin API (on in the e2e stack).
 */
export async function createIdentity(provider: MailProvider, givenName = "Robin"): Promise<TestIdentity> {
  const suffix = randomBytes(4).toString("hex");
  const familyName = `Test${suffix}`;
  const email = `${givenName.toLowerCase()}.${suffix}@${provider === "gmail" ? "gmail.com" : "outlook.com"}`;
  const res = await fetch(`${EMULATOR_URL}/_admin/identities`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      provider: provider === "gmail" ? "google" : "microsoft",
      email,
      name: `${givenName} ${familyName}`,
      givenName,
      familyName,
    }),
  });
  if (res.status !== 201)
    throw new Error(`emulator refused identity ${email}: ${res.status} ${await res.text()}`);
  return { provider, email, name: `${givenName} ${familyName}` };
}

/** On the emulator: pick the account by its email, then Allow or Cancel on the consent screen. */
export async function completeConsent(page: Page, email: string, decision: "Allow" | "Cancel" = "Allow") {
  await page.getByRole("button", { name: email }).click();
  await page.getByRole("button", { name: decision, exact: true }).click();
}

/** Runs the provider's consent in the popup that `open` triggers; resolves once the popup closed. */
export async function consentInPopup(
  page: Page,
  open: () => Promise<void>,
  email: string,
  decision: "Allow" | "Cancel" = "Allow",
): Promise<void> {
  const popupPromise = page.waitForEvent("popup");
  await open();
  const popup = await popupPromise;
  const closed = popup.waitForEvent("close", { timeout: 15_000 });
  await completeConsent(popup, email, decision);
  await closed;
}

/** Signs in from /login through the popup and waits for the dashboard. */
export async function signIn(page: Page, email: string): Promise<void> {
  const provider = providerOf(email);
  await page.goto("/login");
  await consentInPopup(
    page,
    () => page.getByRole("button", { name: `Continue with ${PROVIDER_NAMES[provider]}` }).click(),
    email,
  );
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible();
}

export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem("sessionToken"));
}

/** Opens Settings > Connected accounts and returns the dialog. */
export async function openAccounts(page: Page) {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Connected accounts" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * `test` for auth specs. The one spec that moves the server clock (expiring every session) runs
 * in its own Playwright project after all others; see playwright.config.ts.
 */
export const test = base;

export { expect };

/** A toast in the notification area (Radix puts a second, hidden copy elsewhere for screen readers). */
export function toastWith(page: Page, title: string) {
  return page
    .getByRole("region", { name: /^Notifications/ })
    .getByRole("listitem")
    .filter({ hasText: title });
}
