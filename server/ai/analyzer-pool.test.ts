import { afterAll, describe, expect, it } from "vitest";
import { apiSuite } from "../test/api-suite.ts";
import { createAccount, createEmails, createUser } from "../test/factories.ts";
import { waitUntil } from "../test/sync-fixture.ts";
import { createAnalyzerPool } from "./analyzer-pool.ts";
import { analyzeEmail } from "./local/index.ts";
import type { AnalyzerContext, AnalyzerInput } from "./local/types.ts";

const received = new Date("2026-11-30T09:15:00Z");

/** Mail the analyzer treats differently: a request with a deadline, a newsletter, a phish in HTML. */
const items: Array<{ input: AnalyzerInput; context: AnalyzerContext }> = [
  {
    input: {
      from: { name: "Dana Whitfield", address: "dana@northwind.example" },
      to: [{ name: "Alex Morgan", address: "alex.morgan@gmail.com" }],
      subject: "Budget review before Friday",
      bodyText:
        "Hi Alex,\n\nCould you send me the revised budget by Friday? The board meets on Monday and I need the figures.\n\nThanks,\nDana",
      bodyHtml: null,
      receivedAt: received,
    },
    context: {
      userAddresses: ["alex.morgan@gmail.com"],
      isKnownContact: true,
      senderStats: { repliedCount: 4, archivedUnreadCount: 0 },
      contactDomains: ["northwind.example"],
    },
  },
  {
    input: {
      from: { name: "Weekly Digest", address: "news@digest.example" },
      subject: "This week: 10 stories you missed",
      bodyText: null,
      bodyHtml:
        "<html><body><h1>Top stories</h1><p>Read the <a href='https://digest.example/a'>full story</a>.</p><p>Unsubscribe</p></body></html>",
      receivedAt: received,
      headers: { listUnsubscribe: "<https://digest.example/u/1>" },
    },
    context: { userAddresses: ["alex.morgan@gmail.com"], priorityHandling: "low" },
  },
  {
    input: {
      from: { name: "PayPal Security", address: "security@paypa1-alerts.example" },
      replyTo: [{ name: "", address: "verify@collector.example" }],
      subject: "Your account is suspended: verify now",
      bodyText: null,
      bodyHtml:
        "<p>We noticed unusual activity. <a href='http://198.51.100.7/login'>Verify your account</a> within 24 hours or it will be closed.</p>",
      receivedAt: received,
      headers: { authenticationResults: "mx.example; spf=fail; dkim=none; dmarc=fail" },
    },
    context: { userAddresses: ["alex.morgan@gmail.com"] },
  },
];

describe("the analyzer pool", () => {
  const pool = createAnalyzerPool({ idleTimeoutMs: 1_000 });
  afterAll(() => pool.close());

  it("gives the same analyses as the analyzer on the event loop", async () => {
    const inline = items.map(({ input, context }) => analyzeEmail(input, context));
    expect(await pool.analyse(items)).toEqual(inline);
    // The three differ, so the comparison above is not of three copies of one default.
    expect(new Set(inline.map((a) => a.category)).size).toBeGreaterThan(1);
  }, 60_000);

  it("runs a batch again when its thread dies under it", async () => {
    const inline = items.map(({ input, context }) => analyzeEmail(input, context));
    const batch = Array.from({ length: 60 }, (_, i) => items[i % items.length] as (typeof items)[number]);
    const running = pool.analyse(batch);
    // Kill the thread the batch went to while it works (or still loads the analyzer).
    await waitUntil(async () => pool.threads.length > 0, 10_000, "a thread for the batch");
    await pool.threads[0]?.terminate();
    const out = await running;
    expect(out).toHaveLength(60);
    expect(out.slice(0, 3)).toEqual(inline);
  }, 60_000);

  it("ends idle threads", async () => {
    await pool.analyse(items.slice(0, 1));
    expect(pool.threads.length).toBe(1);
    await waitUntil(async () => pool.threads.length === 0, 15_000, "the idle thread ended");
  }, 60_000);

  it("refuses batches once closed", async () => {
    const closing = createAnalyzerPool();
    await closing.close();
    await expect(closing.analyse(items)).rejects.toThrow(/closed/);
  });
});

describe("the analysis job through the pool", () => {
  const suite = apiSuite("postgres", { role: "all" });

  it("analyses stored mail in the pool's thread, and the pool ends with the app", async () => {
    const user = await createUser(suite.db);
    const account = await createAccount(suite.db, user.id);
    await createEmails(suite.db, account, 30);
    const { ai } = suite.server.app;
    const analyzer = ai.analyzer;
    if (!analyzer) throw new Error("the app runs without the analyzer pool");
    await ai.jobs.requestAnalysis(user.id);
    await waitUntil(async () => (await ai.jobs.pending(user.id)) === 0, 60_000, "mail analysed");
    expect(analyzer.threads.length).toBe(1);
    await suite.server.close();
    expect(analyzer.threads.length).toBe(0);
    await expect(analyzer.analyse(items)).rejects.toThrow(/closed/);
  }, 120_000);
});
