/**
 * Issue 13, findings 2 and 3: an email's HTML stays inside its sandboxed frame (nothing of it is
 * laid out, visible or clickable in the app's own document), and nothing remote loads before the
 * person presses "Show images", whatever syntax the sender used.
 */
import type { Page, Request } from "@playwright/test";
import { expect, test } from "./support/auth.ts";
import { emailOf, openEmail, signedInWithMail } from "./support/reader-mail.ts";

const MARKER = "OVERLAY-3f9c";
/** A class only the mail's markup carries (its text may well appear in the list's snippet). */
const MARKUP = "overlay-3f9c";
const OVERLAY_HTML = `<html><head><style>
:host { position: fixed !important; inset: 0 !important; visibility: visible !important; display: block !important;
  z-index: 2147483647 !important; pointer-events: auto !important; background: #c00 !important; }
.m, body { position: fixed !important; inset: 0 !important; visibility: visible !important; z-index: 2147483647 !important; }
</style></head><body>
<div class="${MARKUP}" style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647;visibility:visible;background:#c00;color:#fff;font-size:40px">
${MARKER} Your session expired. <a href="https://phish.example/login">Sign in again</a></div>
<p>Ordinary text below the overlay.</p>
</body></html>`;

test("an overlay email stays inside its frame: nothing of it is in, over or clickable in the app", async ({
  page,
}) => {
  const { emails } = await signedInWithMail(page, [
    {
      from: { name: "Phish", address: "phish@evil.example" },
      subject: "Overlay attempt",
      html: OVERLAY_HTML,
    },
  ]);
  const dialog = await openEmail(page, emailOf(emails, "Overlay attempt"));
  const frame = dialog.locator("iframe");
  // The mail is there, inside the frame.
  await expect(page.frameLocator("iframe").getByText(MARKER)).toBeVisible();

  // Its markup is nowhere in the app's own document, shadow roots included.
  const inApp = await page.evaluate((markup) => {
    const walk = (root: Document | ShadowRoot): boolean =>
      root.querySelector(`.${markup}`) !== null ||
      [...root.querySelectorAll("*")].some((el) => el.shadowRoot !== null && walk(el.shadowRoot));
    return walk(document);
  }, MARKUP);
  expect(inApp, "the email's markup must not be in the app document").toBe(false);

  // Every point of the window outside the frame's rectangle hits the app, never the mail.
  const box = await frame.boundingBox();
  expect(box).not.toBeNull();
  const stray = await page.evaluate(
    ({ rect, markup }) => {
      const hits: string[] = [];
      for (let x = 5; x < window.innerWidth; x += 40) {
        for (let y = 5; y < window.innerHeight; y += 40) {
          const inside = x >= rect.x && x <= rect.x + rect.width && y >= rect.y && y <= rect.y + rect.height;
          if (inside) continue;
          const el = document.elementFromPoint(x, y);
          if (!el) continue;
          const fromMail = el.tagName === "IFRAME" || el.shadowRoot?.querySelector(`.${markup}`);
          if (fromMail) hits.push(`${x},${y}: ${el.tagName}`);
        }
      }
      return hits;
    },
    { rect: box ?? { x: 0, y: 0, width: 0, height: 0 }, markup: MARKUP },
  );
  expect(stray, "points outside the frame that hit the email").toEqual([]);

  // The reader's own buttons stay reachable (trial clicks check nothing covers them).
  for (const name of ["Reply", "Archive", "Close"]) {
    await dialog.getByRole("button", { name }).first().click({ trial: true, timeout: 5_000 });
  }
});

const CANARY = "https://canary.mailwise.test";
/** One hostile form per line; each names its own path so a failure says which one loaded. */
const BEFORE_CONSENT = [
  `<img src="https:\\\\canary.mailwise.test/p01-backslashes.png" alt="">`,
  `<img src="https:canary.mailwise.test/p02-no-slashes.png" alt="">`,
  `<img src="ht&#9;tps://canary.mailwise.test/p03-tab-in-scheme.png" alt="">`,
  `<img src="&#1;https://canary.mailwise.test/p04-control-before.png" alt="">`,
  `<div style="height:10px;background:\\75 rl(${CANARY}/p05-css-escape-attr.png)">x</div>`,
  `<div style="height:10px;background-image:image-set('${CANARY}/p06-image-set-attr.png' 1x)">x</div>`,
  `<style>.p08{height:10px;background-image:image-set("${CANARY}/p08-image-set-style.png" 1x)}</style><div class="p08">x</div>`,
  `<link rel="stylesheet" href="${CANARY}/p11-link.css">`,
  `<video poster="${CANARY}/p12-video-poster.png" width="10" height="10"></video>`,
  `<input type="image" src="${CANARY}/p13-input-image.png" alt="go">`,
  `<table background="${CANARY}/p14-table-background.png"><tr><td background="${CANARY}/p14-td-background.png">cell</td></tr></table>`,
  `<svg width="10" height="10"><image href="${CANARY}/p15-svg-image.png" width="10" height="10"/></svg>`,
  `<img src="${CANARY}/p16-plain.png" alt="plain">`,
];
const HEAD_STYLE = `<style>
.p07 { height: 10px; background: \\75 rl(${CANARY}/p07-css-escape-style.png) }
@import url("${CANARY}/p09-import.css");
@font-face { font-family: Canary; src: url(${CANARY}/p10-font-face.woff) }
.p10 { font-family: Canary }
</style>`;
const CANARY_HTML = `<html><head>${HEAD_STYLE}</head><body><p>Canary mail</p>
<div class="p07">x</div><p class="p10">font</p>
${BEFORE_CONSENT.join("\n")}
</body></html>`;
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

async function listenOnCanary(page: Page): Promise<Request[]> {
  const seen: Request[] = [];
  await page.route(`${CANARY}/**`, (route) => {
    seen.push(route.request());
    return route.fulfill({ status: 200, contentType: "image/png", body: PNG });
  });
  return seen;
}

test("nothing remote loads before 'Show images', whatever the syntax; afterwards images load without a Referer", async ({
  page,
}) => {
  const seen = await listenOnCanary(page);
  const { emails } = await signedInWithMail(page, [
    {
      from: { name: "Canary", address: "canary@tracked.example" },
      subject: "Canary forms",
      html: CANARY_HTML,
    },
  ]);
  const dialog = await openEmail(page, emailOf(emails, "Canary forms"));
  await expect(page.frameLocator("iframe").getByText("Canary mail")).toBeVisible();
  const bar = dialog
    .getByRole("status")
    .filter({ hasText: "Remote images are hidden to protect your privacy." });
  await expect(bar).toBeVisible();
  // Give every form time to fire: layout, image decoding, fonts.
  await page.waitForTimeout(2_000);
  expect(seen.map((r) => new URL(r.url()).pathname)).toEqual([]);

  // The frame's own policy, not just the sanitizer, refuses remote loads.
  const srcdoc = (await dialog.locator("iframe").getAttribute("srcdoc")) ?? "";
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(srcdoc)?.[1] ?? "";
  for (const directive of [
    "img-src data: cid:",
    "media-src data: cid:",
    "font-src data: cid:",
    "connect-src 'none'",
  ])
    expect(csp).toContain(directive);
  expect(csp).toContain("style-src 'unsafe-inline'");
  expect(csp).not.toContain("https:");
  await expect(dialog.locator("iframe")).toHaveAttribute("referrerpolicy", "no-referrer");

  // After consent, images load, and none of them tells the sender where it was opened from.
  await bar.getByRole("button", { name: "Show images" }).click();
  await expect.poll(() => seen.map((r) => new URL(r.url()).pathname)).toContain("/p16-plain.png");
  await page.waitForTimeout(1_000);
  for (const request of seen) expect(request.headers().referer, request.url()).toBeUndefined();
  // Consent covers images: remote stylesheets and fonts never load.
  const paths = seen.map((r) => new URL(r.url()).pathname);
  for (const never of ["/p09-import.css", "/p10-font-face.woff", "/p11-link.css"])
    expect(paths).not.toContain(never);
});
