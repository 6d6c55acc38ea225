/**
 * Draws the installable app's PNG icons (web/public/icons/) from the app's logo, web/public/favicon.svg,
 * in the same Chromium the browser tests use: `npx tsx scripts/generate-app-icons.ts`. The PNGs are
 * committed; run this again only when the logo changes.
 *
 * "any" icons are the logo as it is (a rounded square). Maskable icons fill the whole square with the
 * brand colour and keep the envelope inside the central safe circle (radius 40% of the size), since
 * launchers crop them to their own shape.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "..");
const logo = readFileSync(path.join(root, "web/public/favicon.svg"), "utf8");
const BRAND = "#4f46e5";

// The logo's envelope, scaled about the centre so its corners sit well inside the safe circle.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/><g transform="translate(16 16) scale(0.8) translate(-16 -16)"><path d="M7 10h18v12H7z" fill="none" stroke="#fff" stroke-width="2"/><path d="M7 10l9 7 9-7" fill="none" stroke="#fff" stroke-width="2"/></g></svg>`;

const icons: Array<{ file: string; svg: string; size: number }> = [
  { file: "icon-192.png", svg: logo, size: 192 },
  { file: "icon-512.png", svg: logo, size: 512 },
  { file: "maskable-192.png", svg: maskable, size: 192 },
  { file: "maskable-512.png", svg: maskable, size: 512 },
  { file: "apple-touch-icon-180.png", svg: maskable, size: 180 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  for (const { file, svg, size } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style><img src="${src}" width="${size}" height="${size}">`,
    );
    // setContent waits for the load event, which waits for the (data: URL) image.
    const png = await page.screenshot({
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    writeFileSync(path.join(root, "web/public/icons", file), png);
    await page.close();
    console.log(`${file}: ${size}x${size}, ${png.length} bytes`);
  }
} finally {
  await browser.close();
}
