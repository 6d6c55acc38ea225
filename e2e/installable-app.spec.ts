/**
 * Issue 38, the installable app: the manifest and its icons, an active service worker controlling
 * the page, Chromium's installability check, and the app opening offline with the last inbox and
 * the "Offline" banner, where actions are refused in words.
 */

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { chromium } from "@playwright/test";
import {
  acceptCookies,
  identityWithMail,
  inboxRows,
  note,
  waitForSyncedEmails,
} from "./dashboard-fixtures.ts";
import { expect, signInOverHttp, test, toastWith } from "./support/auth.ts";

// Every other spec blocks service workers (playwright.config.ts); this one is about them.
test.use({ serviceWorkers: "allow" });

test.beforeEach(async ({ page }) => acceptCookies(page));

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** Resolves once a service worker is active and controls the page. */
async function controlled(page: import("@playwright/test").Page): Promise<string> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), {
      timeout: 15_000,
    })
    .toMatch(/\/sw\.js$/);
  return page.evaluate(() => navigator.serviceWorker.controller?.state ?? "none");
}

test("the manifest is linked, its fields and icons right; a service worker controls the page and takes pushes", async ({
  page,
}) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const res = await page.request.get(href ?? "");
  expect(res.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = (await res.json()) as Manifest;
  expect(manifest).toMatchObject({
    name: "Mailwise",
    short_name: "Mailwise",
    start_url: "/dashboard",
    display: "standalone",
    theme_color: "#4f46e5",
  });
  expect(manifest.background_color).toBeTruthy();
  const sizes = new Set<string>();
  for (const icon of manifest.icons) {
    const file = await page.request.get(icon.src);
    expect(file.headers()["content-type"], icon.src).toBe("image/png");
    expect(pngSize(await file.body()), icon.src).toBe(icon.sizes);
    sizes.add(`${icon.sizes} ${icon.purpose ?? "any"}`);
  }
  expect([...sizes].sort()).toEqual(["192x192 any", "192x192 maskable", "512x512 any", "512x512 maskable"]);

  const worker = await page.request.get("/sw.js");
  expect(worker.headers()["content-type"]).toContain("javascript");
  expect(worker.headers()["cache-control"]).toBe("no-cache");

  expect(await controlled(page)).toBe("activated");

  // A Web Push while this tab is in front: no system notification, the page is told and re-reads
  // the mail (the dashboard's refreshEmails event). A malformed push is ignored.
  await page.evaluate(() => {
    const w = window as unknown as { refreshes: number; told: unknown[] };
    w.refreshes = 0;
    w.told = [];
    window.addEventListener("refreshEmails", () => {
      w.refreshes += 1;
    });
    navigator.serviceWorker.addEventListener("message", (e) => w.told.push(e.data));
  });
  const cdp = await page.context().newCDPSession(page);
  const registration = new Promise<string>((resolve) =>
    cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => {
      const found = e.registrations.find((r) => !r.isDeleted);
      if (found) resolve(found.registrationId);
    }),
  );
  await cdp.send("ServiceWorker.enable");
  const registrationId = await registration;
  const origin = new URL(page.url()).origin;
  const push = (data: unknown) =>
    cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(data) });
  await push({ type: "mail", emailId: "e1", from: "Ada", body: "no subject field" });
  await push({ type: "mail", emailId: "e1", from: "Ada", subject: "Engine notes" });
  // The worker takes pushes in order: had the malformed one been shown, it would come first.
  const told = () => page.evaluate(() => (window as unknown as { told: unknown[] }).told);
  await expect.poll(told).toHaveLength(1);
  expect(await told()).toEqual([
    { type: "mailwise:push", push: { type: "mail", emailId: "e1", from: "Ada", subject: "Engine notes" } },
  ]);
  expect(await page.evaluate(() => (window as unknown as { refreshes: number }).refreshes)).toBe(1);
  const shown = await page.evaluate(async () => (await navigator.serviceWorker.ready).getNotifications());
  expect(shown).toHaveLength(0);
});

test("Chromium's installability check finds nothing missing", async ({ baseURL }, testInfo) => {
  // The check runs in the full browser (the headless shell answers it with nothing at all) and
  // outside incognito, which Playwright's ordinary contexts are: a persistent profile of its own.
  const context = await chromium.launchPersistentContext(testInfo.outputPath("profile"), {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-component-update"],
    baseURL,
    serviceWorkers: "allow",
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto("/");
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

test("a new version waits for Reload, which lets it take over", async ({ page }) => {
  await page.goto("/");
  await controlled(page);
  // The next deploy: the served worker with one more line is a new version to the browser. The
  // browser fetches a worker's script itself, out of page.route()'s reach, so the built file
  // changes for a moment (other specs block service workers; this file's other tests accept either).
  const built = path.resolve(process.env.WEB_DIST_DIR ?? "dist/web", "sw.js");
  const original = await readFile(built, "utf8");
  try {
    await writeFile(built, `${original}\n// the next version\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
  } finally {
    await writeFile(built, original);
  }
  const prompt = page.getByRole("status").filter({ hasText: "New version available" });
  await expect(prompt).toBeVisible({ timeout: 15_000 });
  // Until Reload the old worker keeps the page.
  const waiting = () =>
    page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => Boolean(r?.waiting)));
  expect(await waiting()).toBe(true);
  const reloaded = page.waitForEvent("load");
  await prompt.getByRole("button", { name: "Reload" }).click();
  await reloaded;
  await expect(prompt).toHaveCount(0);
  expect(await waiting()).toBe(false);
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe("activated");
});

test("?email= opens the reader; offline the app opens with the last inbox and the Offline banner; an action is refused", async ({
  page,
  context,
}) => {
  const me = await identityWithMail([
    note("Offline one", 1),
    note("Offline two", 2),
    note("Offline three", 3),
  ]);
  await signInOverHttp(page, me.email);
  await waitForSyncedEmails(page, 3);
  await expect(inboxRows(page)).toHaveCount(3);
  // A mail notification's click lands on /dashboard?email=<id>: the reader opens with that mail.
  const id = await inboxRows(page).last().getAttribute("data-email-id");
  await page.goto(`/dashboard?email=${encodeURIComponent(id ?? "")}`);
  await expect(page.getByRole("dialog", { name: "Offline one" })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.keyboard.press("Escape");
  // The offline reload below needs an active worker; this page itself may have loaded while the
  // first worker was still installing (claim() takes only the pages open when it activates).
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state), {
      timeout: 15_000,
    })
    .toBe("activated");
  // The inbox is kept a second after it loads.
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem("mailwise:offline-inbox") ?? ""))
    .toContain("Offline three");

  await context.setOffline(true);
  await page.reload();
  const banner = page.getByTestId("offline-banner");
  await expect(banner).toContainText("Offline");
  await expect(inboxRows(page)).toHaveCount(3);
  await expect(inboxRows(page).first()).toContainText("Offline three");

  // Archive the first row from the keyboard: refused in words, and the row stays.
  await page.keyboard.press("j");
  await page.keyboard.press("e");
  await expect(toastWith(page, "Offline")).toContainText(
    "You're offline. Try again when you're back online.",
  );
  await expect(inboxRows(page)).toHaveCount(3);

  await context.setOffline(false);
  await expect(banner).toHaveCount(0);
});
