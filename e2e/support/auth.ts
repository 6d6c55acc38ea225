/**
 * Sign-in helpers for the browser tests: fresh emulator identities, the consent screen, the
 * login popup, and a lock that keeps server-clock jumps away from tests holding a session.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";

export const EMULATOR_URL = (
  process.env.E2E_EMULATOR_URL ?? `http://127.0.0.1:${process.env.E2E_EMULATOR_PORT ?? "4190"}`
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
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Connected accounts" });
  await expect(dialog).toBeVisible();
  return dialog;
}

// --- Server clock lock -------------------------------------------------------------------------
// Moving the server clock a month ahead expires every session in the shared stack. Tests that
// hold a session take a shared lock; a clock-moving test takes it exclusively (a file-based
// readers-writer lock, since Playwright workers are separate processes).

const LOCK_DIR = path.resolve(".tmp/e2e-clock-lock");
const EXCLUSIVE = "exclusive";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Lock files of live workers only; a crashed run's files are ignored and removed. */
function holders(): { shared: string[]; exclusive: boolean } {
  const shared: string[] = [];
  let exclusive = false;
  for (const name of readdirSync(LOCK_DIR)) {
    const pid = Number(name.split("-")[1]);
    if (!alive(pid)) {
      rmSync(path.join(LOCK_DIR, name), { force: true });
      continue;
    }
    if (name.startsWith(EXCLUSIVE)) exclusive = true;
    else shared.push(name);
  }
  return { shared, exclusive };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function acquire(mode: "shared" | "exclusive"): Promise<() => void> {
  mkdirSync(LOCK_DIR, { recursive: true });
  const file = path.join(
    LOCK_DIR,
    `${mode === "exclusive" ? EXCLUSIVE : "shared"}-${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  const release = () => rmSync(file, { force: true });
  for (;;) {
    if (mode === "shared") {
      if (!holders().exclusive) {
        writeFileSync(file, "");
        // An exclusive holder may have arrived meanwhile: back off and let it go first.
        if (!holders().exclusive) return release;
        release();
      }
    } else {
      const before = holders();
      if (!before.exclusive) {
        writeFileSync(file, "");
        const mine = path.basename(file);
        const exclusives = readdirSync(LOCK_DIR)
          .filter((n) => n.startsWith(EXCLUSIVE))
          .sort();
        if (exclusives[0] === mine) {
          // Readers drain; new ones wait while our file exists.
          while (holders().shared.length > 0) await sleep(100);
          return release;
        }
        release();
      }
    }
    await sleep(100);
  }
}

/**
 * `test` for auth specs: holds the clock lock for the whole test. Files that move the server
 * clock set `test.use({ clockLock: "exclusive" })`.
 */
export const test = base.extend<{ clockLock: "shared" | "exclusive"; _clockLock: undefined }>({
  clockLock: ["shared", { option: true }],
  _clockLock: [
    async ({ clockLock }, use) => {
      const release = await acquire(clockLock);
      try {
        await use(undefined);
      } finally {
        release();
      }
    },
    { auto: true },
  ],
});

export { expect };

/** A toast in the notification area (Radix puts a second, hidden copy elsewhere for screen readers). */
export function toastWith(page: Page, title: string) {
  return page
    .getByRole("region", { name: /^Notifications/ })
    .getByRole("listitem")
    .filter({ hasText: title });
}
