import { describe, expect, it } from "vitest";
import {
  BUSY_REQUESTS_PER_SECOND,
  BUSY_STEP_SPACING_MS,
  createInteractiveLoad,
  isInteractive,
} from "./interactive-load.ts";

describe("the interactive load", () => {
  it("is busy from the busy rate of requests a second, and quiet again a second later", () => {
    let t = 0;
    const load = createInteractiveLoad(() => t);
    for (let i = 0; i < BUSY_REQUESTS_PER_SECOND - 1; i++) load.begin()();
    expect(load.busy()).toBe(false);
    load.begin()();
    expect(load.busy()).toBe(true);
    t += 1_001;
    expect(load.busy()).toBe(false);
  });

  it("lets background steps go at once while quiet", async () => {
    const load = createInteractiveLoad();
    const started = performance.now();
    await load.turn();
    await load.turn();
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("while busy, spaces steps and starts one only once the request in flight is answered", async () => {
    const load = createInteractiveLoad();
    for (let i = 0; i < BUSY_REQUESTS_PER_SECOND; i++) load.begin()();
    await load.turn();
    // A client keeps the API busy with short requests while one long request is in flight.
    const client = setInterval(() => load.begin()(), 50);
    const end = load.begin();
    let stepped = false;
    const step = load.turn().then(() => {
      stepped = true;
    });
    await new Promise((r) => setTimeout(r, BUSY_STEP_SPACING_MS / 2));
    expect(stepped).toBe(false);
    await new Promise((r) => setTimeout(r, BUSY_STEP_SPACING_MS));
    expect(stepped).toBe(false);
    end();
    await step;
    clearInterval(client);
    expect(stepped).toBe(true);
  });

  it("counts API calls, not the live stream, provider pushes or test hooks", () => {
    expect(isInteractive("/api/emails?limit=50")).toBe(true);
    expect(isInteractive("/api/events")).toBe(false);
    expect(isInteractive("/api/webhooks/gmail?token=x")).toBe(false);
    expect(isInteractive("/api/_test/ai-pending")).toBe(false);
    expect(isInteractive("/healthz")).toBe(false);
  });
});
