import type { Locator } from "@playwright/test";
import { acceptCookies, generate, waitForSyncedEmails } from "./dashboard-fixtures.ts";
import { createIdentity, expect, signInOverHttp, storedToken, test } from "./support/auth.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

test("a 10,000-message inbox scrolls smoothly (frame times during a programmatic scroll)", async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Outlook: Graph has no per-minute unit quota, so the 10,000-message backfill takes seconds,
  // not the 3+ minutes Gmail's 15,000 units a minute allow (measured in bench/sync/quota.ts).
  const me = await createIdentity("outlook", "Max");
  // The mailbox exists before sign-in, as for a new user: the initial sync and its backfill bring
  // the 10,000 messages in (the path a real first sign-in takes).
  await generate(me.email, 10_000);
  await signInOverHttp(page, me.email);
  await waitForSyncedEmails(page, 10_000, 200_000);
  const token = await storedToken(page);
  // The analysis job then reads all 10,000; on two cores it would be measured with the page.
  await expect
    .poll(
      async () =>
        (
          (await (
            await page.request.get(`/api/_test/ai-pending?email=${encodeURIComponent(me.email)}`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).json()) as {
            pending: number;
          }
        ).pending,
      { timeout: 120_000, intervals: [1_000] },
    )
    .toBe(0);
  await page.reload();

  const scroller = page.getByTestId("inbox-scroll");
  await expect(scroller).toBeVisible({ timeout: 20_000 });
  // The bucket cards page through every email of their bucket once after a load; the measurement
  // is of scrolling, so it starts when that has settled.
  await page.waitForLoadState("networkidle");
  // Only the visible rows (plus overscan) are in the DOM, however long the list.
  expect(await scroller.locator("[data-email-id]").count()).toBeLessThan(60);

  // The bound is a ratio to a baseline measured in the same page and run: a static list of the
  // same row height with no script, scrolled the same way. Machines differ in how fast they paint
  // (on this 2-core VM without a GPU even the static list paints at 30 fps), and a ratio to what
  // the same browser does with no app code at all is what the app's code is answerable for.
  // One measuring loop for both lists: scroll 400 px a frame for 4 s, record the frame times.
  const measure = (list: Locator) =>
    list.evaluate(async (el) => {
      const times: number[] = [];
      let last = performance.now();
      const end = last + 4000;
      await new Promise<void>((resolve) => {
        const step = (now: number) => {
          times.push(now - last);
          last = now;
          el.scrollTop += 400;
          if (now < end) requestAnimationFrame(step);
          else resolve();
        };
        requestAnimationFrame(step);
      });
      return { times: times.slice(1), scrolled: el.scrollTop };
    });
  await page.evaluate(
    ({ rows, rowHeight }) => {
      const box = document.createElement("div");
      box.dataset.testid = "static-baseline";
      box.style.cssText =
        "position:fixed;inset:0 auto auto 0;width:900px;height:60vh;overflow:auto;z-index:99999";
      box.innerHTML = Array.from(
        { length: rows },
        (_, i) =>
          `<div style="height:${rowHeight}px;box-sizing:border-box;border-bottom:1px solid #eee;padding:8px 16px;font:14px sans-serif"><b>Sender ${i}</b><div>Subject of message ${i}</div><small>Snippet of message ${i}</small></div>`,
      ).join("");
      document.body.append(box);
    },
    { rows: 1_000, rowHeight: 76 },
  );
  const staticList = page.getByTestId("static-baseline");
  const baseline = (await measure(staticList)).times;
  await staticList.evaluate((el) => el.remove());
  const frames = await measure(scroller);
  const stats = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return {
      median: sorted[Math.floor(sorted.length / 2)] ?? Infinity,
      p95: sorted[Math.floor(sorted.length * 0.95)] ?? Infinity,
    };
  };
  const app = stats(frames.times);
  const base = stats(baseline);
  console.log(
    `10k scroll: ${frames.times.length} frames, median ${app.median.toFixed(1)} ms, p95 ${app.p95.toFixed(1)} ms, ` +
      `scrolled ${frames.scrolled}px; static list baseline: median ${base.median.toFixed(1)} ms, p95 ${base.p95.toFixed(1)} ms`,
  );
  // It really scrolled past the first pages (more were fetched with the cursor).
  expect(frames.scrolled).toBeGreaterThan(20_000);
  // Frames come in whole refresh intervals, so "no slower" means the same interval at the median
  // (10 % slack for timer noise) and at most one interval more at the 95th percentile.
  expect(app.median).toBeLessThanOrEqual(base.median * 1.1);
  expect(app.p95).toBeLessThanOrEqual(base.p95 + base.median * 1.1);
  expect(await scroller.locator("[data-email-id]").count()).toBeLessThan(60);
});
