import type { Locator } from "@playwright/test";
import { acceptCookies, generate, waitForSyncedEmails } from "./dashboard-fixtures.ts";
import { watchApiIdle } from "./support/api-idle.ts";
import { createIdentity, expect, signInOverHttp, storedToken, test } from "./support/auth.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

test("a 10,000-message inbox scrolls smoothly, and Inbox Zero mode's cards drag and fly smoothly over it (frame times)", async ({
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
  const requests = watchApiIdle(page);
  await page.reload();

  const scroller = page.getByTestId("inbox-scroll");
  await expect(scroller).toBeVisible({ timeout: 20_000 });
  // The bucket cards page through every email of their bucket once after a load; the measurement
  // is of scrolling, so it starts when that has settled.
  await requests.idle(60_000);
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
  // This VM's compositor switches between 30 and 60 fps with the host's load, so each baseline is
  // taken just before and just after the app's measurement, and the app is held to the slower.
  const addStaticList = () =>
    page.evaluate(
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
  const staticFrames = async () => {
    await addStaticList();
    const times = (await measure(staticList)).times;
    await staticList.evaluate((el) => el.remove());
    return times;
  };
  const baselineBefore = await staticFrames();
  const frames = await measure(scroller);
  const baselineAfter = await staticFrames();
  const stats = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return {
      median: sorted[Math.floor(sorted.length / 2)] ?? Infinity,
      p95: sorted[Math.floor(sorted.length * 0.95)] ?? Infinity,
    };
  };
  const slower = (a: { median: number; p95: number }, b: { median: number; p95: number }) =>
    a.median >= b.median ? a : b;
  const app = stats(frames.times);
  const base = slower(stats(baselineBefore), stats(baselineAfter));
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

  // Inbox Zero mode over the same inbox: frame times while a card is dragged across and flies
  // out, against the same drag of a plain element that a one-line pointer handler moves.
  await page.getByTestId("inbox-scroll").evaluate((el) => {
    el.scrollTop = 0;
  });
  const dragFrames = async (target: Locator) => {
    const box = await target.boundingBox();
    if (!box) throw new Error("nothing to drag");
    await page.evaluate(() => {
      const w = window as unknown as { dragTimes: number[]; dragging: boolean };
      w.dragTimes = [];
      w.dragging = true;
      let last = performance.now();
      const step = (now: number) => {
        w.dragTimes.push(now - last);
        last = now;
        if (w.dragging) requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    // About a second of dragging, right, past the archive threshold; then the release.
    await page.mouse.move(x + 320, y + 10, { steps: 60 });
    await page.mouse.up();
    await page.waitForTimeout(600);
    return page.evaluate(() => {
      const w = window as unknown as { dragTimes: number[]; dragging: boolean };
      w.dragging = false;
      return w.dragTimes.slice(1);
    });
  };
  // The plain element's drag, as the baseline: a one-line pointer handler moves it.
  const addDragBaseline = () =>
    page.evaluate(() => {
      const el = document.createElement("div");
      el.dataset.testid = "drag-baseline";
      el.style.cssText =
        "position:fixed;left:400px;top:200px;width:420px;height:420px;background:#fff;border-radius:16px;box-shadow:0 10px 30px rgba(0,0,0,.3);z-index:99999;touch-action:none";
      let start: { x: number; y: number } | null = null;
      el.addEventListener("pointerdown", (e) => {
        start = { x: e.clientX, y: e.clientY };
      });
      window.addEventListener("pointermove", (e) => {
        if (start) el.style.transform = `translate(${e.clientX - start.x}px, ${e.clientY - start.y}px)`;
      });
      window.addEventListener("pointerup", () => {
        if (!start) return;
        start = null;
        el.animate([{ transform: el.style.transform }, { transform: "translate(800px, 0)" }], {
          duration: 250,
        });
      });
      document.body.append(el);
    });
  const plainDrag = async () => {
    await addDragBaseline();
    const times = await dragFrames(page.getByTestId("drag-baseline"));
    await page.getByTestId("drag-baseline").evaluate((el) => el.remove());
    return times;
  };
  // The compositor's rate moves with the host's load (see above), so a drag over a moment of
  // load reads as 30 fps for the app and its baseline alike, or for one of them only. Up to three
  // rounds, each with its own baselines just before and after; the app passes on the first round
  // within the bound, and fails if no round is.
  const dialog = page.getByRole("dialog", { name: "Inbox Zero Mode" });
  const rounds: string[] = [];
  let within = false;
  for (let round = 1; round <= 3 && !within; round += 1) {
    const dragBefore = await plainDrag();
    await page.getByRole("button", { name: "Start Inbox Zero" }).click();
    const card = dialog.locator("[data-top-card]");
    await expect(card).toBeVisible();
    const appDrag = stats(await dragFrames(card));
    await expect(dialog.getByText("Undo (Archived)")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    const baseDrag = slower(stats(dragBefore), stats(await plainDrag()));
    rounds.push(
      `round ${round}: median ${appDrag.median.toFixed(1)} ms, p95 ${appDrag.p95.toFixed(1)} ms; ` +
        `plain element baseline: median ${baseDrag.median.toFixed(1)} ms, p95 ${baseDrag.p95.toFixed(1)} ms`,
    );
    within = appDrag.median <= baseDrag.median * 1.1 && appDrag.p95 <= baseDrag.p95 + baseDrag.median * 1.1;
  }
  console.log(`Inbox Zero drag over the 10k inbox: ${rounds.join("; ")}`);
  expect(within, rounds.join("\n")).toBe(true);
});
