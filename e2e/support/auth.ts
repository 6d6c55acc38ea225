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

/** The first match's group 1, HTML entities of attribute values undone; throws with the page. */
function pick(html: string, pattern: RegExp, what: string): string {
  const found = pattern.exec(html)?.[1];
  if (found === undefined) throw new Error(`emulator sign-in page without ${what}: ${html.slice(0, 300)}`);
  return found.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'");
}

/**
 * A session made through the same OAuth flow as the popup (the server's start call and flow
 * cookie, the emulator's account chooser and consent, the callback), but over HTTP in the page's
 * own cookie jar instead of drawing four pages. For tests whose subject is not sign-in: on two
 * cores every page a test does not need to see costs about a second.
 */
export async function sessionOverHttp(page: Page, email: string): Promise<string> {
  const provider = providerOf(email);
  const request = page.request;
  const start = await request.get(`/api/auth/${provider}`);
  if (!start.ok()) throw new Error(`sign-in start: ${start.status()} ${await start.text()}`);
  let url = ((await start.json()) as { authUrl: string }).authUrl;
  let response = await request.get(url, { maxRedirects: 0 });
  let location: string | undefined;
  for (let step = 0; step < 4 && location === undefined; step += 1) {
    const html = await response.text();
    const action = new URL(pick(html, /<form method="post" action="([^"]+)"/, "a form"), url).href;
    const flow = pick(html, /name="flow" value="([^"]+)"/, "a flow");
    const escaped = email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const account = new RegExp(`name="identity" value="([^"]+)"(?:(?!</button>).)*${escaped}`, "s");
    const form: Record<string, string> = html.includes('name="identity"')
      ? { flow, identity: pick(html, account, email) }
      : { flow, decision: "allow" };
    response = await request.post(action, { form, maxRedirects: 0 });
    url = action;
    location = response.status() >= 300 && response.status() < 400 ? response.headers().location : undefined;
  }
  if (location === undefined)
    throw new Error(`the emulator did not redirect back after consent for ${email}`);
  const back = new URL(location);
  const callback = await request.get(`/api/auth/${provider}/callback${back.search}`);
  if (!callback.ok()) throw new Error(`sign-in callback: ${callback.status()} ${await callback.text()}`);
  return ((await callback.json()) as { sessionToken: string }).sessionToken;
}

/** Stores the session as the app does and opens the dashboard. */
export async function openDashboardWith(page: Page, sessionToken: string): Promise<void> {
  // A document of the app's origin that runs no script, to hold the token before the app starts.
  await page.goto("/favicon.svg");
  await page.evaluate((token) => localStorage.setItem("sessionToken", token), sessionToken);
  await page.goto("/dashboard");
  // The first page load of a test can share the two cores with another test's page and sync.
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible({ timeout: 15_000 });
}

/** Signs in over HTTP (see sessionOverHttp) and opens the dashboard. */
export async function signInOverHttp(page: Page, email: string): Promise<string> {
  const sessionToken = await sessionOverHttp(page, email);
  await openDashboardWith(page, sessionToken);
  return sessionToken;
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
 * In the Connected accounts dialog: presses "Add Gmail/Outlook account" (or the given button) and
 * confirms the link, which names the signed-in person first. Resolves once the popup opened.
 */
export async function startLink(page: Page, open: () => Promise<void>, provider: MailProvider) {
  await open();
  const article = provider === "outlook" ? "an" : "a";
  const confirm = page.getByRole("alertdialog", {
    name: `Link ${article} ${PROVIDER_NAMES[provider]} account?`,
  });
  await expect(confirm).toContainText("You are signed in as");
  await confirm.getByRole("button", { name: `Link ${PROVIDER_NAMES[provider]} account` }).click();
}

/** Adds a mailbox from the Connected accounts dialog: confirm the link, then consent in the popup. */
export async function addAccount(
  page: Page,
  dialog: ReturnType<Page["getByRole"]>,
  identity: TestIdentity,
  decision: "Allow" | "Cancel" = "Allow",
): Promise<void> {
  const name = PROVIDER_NAMES[identity.provider];
  await consentInPopup(
    page,
    () =>
      startLink(
        page,
        () => dialog.getByRole("button", { name: `Add ${name} account` }).click(),
        identity.provider,
      ),
    identity.email,
    decision,
  );
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

/**
 * Records the title of every toast shown from now on, however briefly: a "Processing" toast that
 * the outcome replaces within a frame is gone before a polling assertion looks (one toast at a
 * time, spec section 9). Resolve with `seenToasts`.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { seenToasts: seen });
    const look = () => {
      for (const item of document.querySelectorAll('[role=region][aria-label^="Notifications"] li')) {
        const text = item.textContent ?? "";
        if (text !== "" && !seen.includes(text)) seen.push(text);
      }
    };
    look();
    new MutationObserver(look).observe(document.body, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
}

/** Every toast text recorded since recordToasts. */
export function seenToasts(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { seenToasts?: string[] }).seenToasts ?? []);
}
