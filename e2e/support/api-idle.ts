import type { Page } from "@playwright/test";

/**
 * Playwright's "networkidle" never comes while the live inbox keeps its event stream open
 * (GET /api/events, issue 38). This watches every other request instead: `idle()` resolves once
 * none has been in flight for `quietMs`. Start watching before the requests of interest begin.
 */
export function watchApiIdle(page: Page, quietMs = 500): { idle: (timeoutMs?: number) => Promise<void> } {
  const inFlight = new Set<unknown>();
  let lastChange = Date.now();
  const counts = (url: string) => new URL(url).pathname !== "/api/events";
  page.on("request", (r) => {
    if (!counts(r.url())) return;
    inFlight.add(r);
    lastChange = Date.now();
  });
  const done = (r: unknown) => {
    if (inFlight.delete(r)) lastChange = Date.now();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return {
    async idle(timeoutMs = 20_000) {
      const start = Date.now();
      while (inFlight.size > 0 || Date.now() - lastChange < quietMs) {
        if (Date.now() - start > timeoutMs) throw new Error(`requests still in flight after ${timeoutMs} ms`);
        await page.waitForTimeout(100);
      }
    },
  };
}
