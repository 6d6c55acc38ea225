import { describe, expect, it } from "vitest";
import { createClock } from "../clock.ts";
import { SEEDED_IDENTITIES } from "../identities.ts";
import { corpusSize } from "./corpus.ts";
import { generateMessages } from "./generator.ts";
import { Mailbox } from "./mailbox.ts";
import { bodies, parseMime, toBinary } from "./mime.ts";
import { MailboxRegistry } from "./registry.ts";

const raw = (subject: string) =>
  `From: a@example.com\r\nTo: b@example.com\r\nSubject: ${subject}\r\n\r\nBody`;

describe("corpus seeding", () => {
  it("spreads all 6,046 messages over the demo identities, spam never in INBOX", () => {
    const registry = new MailboxRegistry(createClock());
    let total = 0;
    const now = Date.now();
    for (const identity of SEEDED_IDENTITIES) {
      const mailbox = registry.get(identity);
      total += mailbox.size;
      expect(mailbox.size).toBeGreaterThan(1000);
      const spam = mailbox.labelIndex("SPAM");
      for (const message of spam?.oldestFirst() ?? []) expect(message.labels.has("INBOX")).toBe(false);
      expect(mailbox.labelCounts("INBOX").unread).toBeGreaterThan(0);
      expect(mailbox.labelCounts("STARRED").total).toBeGreaterThan(0);
      const newest = mailbox.allIndex.newestFirst().next().value;
      expect(newest?.internalDate).toBeLessThanOrEqual(now);
      expect(newest?.internalDate).toBeGreaterThan(now - 2 * 24 * 3600 * 1000);
      expect(newest?.raw()).toContain(`To: ${identity.name} <${identity.email}>`);
    }
    // The corpus, plus one meeting invitation, five mails with files, a three-message
    // conversation and a draft in each demo mailbox.
    expect(total).toBe(6046 + 10 * SEEDED_IDENTITIES.length);
    expect(corpusSize()).toBe(6046);
    // Seeding one mailbox is fast enough to do lazily on first use: about a second on a quiet
    // 2-core machine; the bound leaves room for a loaded CI runner (4.2 s seen) and still fails a
    // seeding that went quadratic.
    for (const timing of registry.seedTimings) expect(timing.ms).toBeLessThan(15_000);
  });

  it("decodes real corpus bodies", () => {
    const registry = new MailboxRegistry(createClock());
    const [identity] = SEEDED_IDENTITIES;
    if (identity === undefined) throw new Error("no seeded identity");
    const mailbox = registry.get(identity);
    let withText = 0;
    let checked = 0;
    for (const message of mailbox.allIndex.newestFirst()) {
      if (checked++ >= 100) break;
      const { text, html } = bodies(parseMime(toBinary(message.raw())));
      if ((text ?? html ?? "").trim() !== "") withText += 1;
    }
    expect(withText).toBeGreaterThan(90);
  });
});

describe("Mailbox", () => {
  it("keeps label counts and unread counts through edits", () => {
    const mailbox = new Mailbox("k", "me@example.com", createClock());
    const a = mailbox.add({ raw: () => raw("a"), internalDate: 1000, labelIds: ["INBOX", "UNREAD"] });
    mailbox.add({ raw: () => raw("b"), internalDate: 2000, labelIds: ["INBOX"] });
    expect(mailbox.labelCounts("INBOX")).toEqual({ total: 2, unread: 1 });
    mailbox.modify(a.id, ["STARRED"], ["UNREAD", "INBOX"]);
    expect(mailbox.labelCounts("INBOX")).toEqual({ total: 1, unread: 0 });
    expect(mailbox.labelCounts("STARRED")).toEqual({ total: 1, unread: 0 });
    expect(mailbox.labelCounts("UNREAD")).toEqual({ total: 0, unread: 0 });
    mailbox.modify(a.id, ["UNREAD"], []);
    expect(mailbox.labelCounts("STARRED")).toEqual({ total: 1, unread: 1 });
  });

  it("changes the Graph id on a folder change and records it", () => {
    const mailbox = new Mailbox("k", "me@example.com", createClock());
    const start = mailbox.historyId;
    const message = mailbox.add({ raw: () => raw("a"), internalDate: 1000, labelIds: ["INBOX"] });
    const before = message.graphId;
    mailbox.move(message.id, "archive");
    expect(message.graphId).not.toBe(before);
    expect(mailbox.getByGraphId(before)).toBeUndefined();
    const changes = mailbox.changesSince(start) ?? [];
    expect(changes.map((change) => change.kind)).toEqual(["messageAdded", "labelRemoved"]);
    expect(changes[1]?.graphBefore).toEqual({ id: before, folder: "inbox" });
  });

  it("drops history past the retention window", () => {
    const clock = createClock();
    const mailbox = new Mailbox("k", "me@example.com", clock, { historyRetentionMs: 60_000 });
    const start = mailbox.historyId;
    mailbox.add({ raw: () => raw("a"), internalDate: 1000, labelIds: ["INBOX"] });
    expect(mailbox.changesSince(start)).toHaveLength(1);
    clock.advance(120);
    mailbox.add({ raw: () => raw("b"), internalDate: 2000, labelIds: ["INBOX"] });
    expect(mailbox.changesSince(start)).toBeUndefined();
    expect(mailbox.changesSince(mailbox.historyId - 1)).toHaveLength(1);
  });

  it("threads by References and In-Reply-To", () => {
    const mailbox = new Mailbox("k", "me@example.com", createClock());
    const first = mailbox.add({
      raw: () => "Message-ID: <one@x>\r\nSubject: Hi\r\n\r\nx",
      internalDate: 1,
      labelIds: ["INBOX"],
    });
    const reply = mailbox.add({
      raw: () => "Message-ID: <two@x>\r\nIn-Reply-To: <one@x>\r\nSubject: Re: Hi\r\n\r\nx",
      internalDate: 2,
      labelIds: ["INBOX"],
    });
    expect(reply.threadId).toBe(first.threadId);
    expect(mailbox.threadCount).toBe(1);
  });
});

describe("generator", () => {
  it("builds 100,000 deterministic messages in reasonable time", () => {
    const make = () => new Mailbox("k", "p@example.com", createClock());
    const mailbox = make();
    const started = performance.now();
    generateMessages(mailbox, {
      count: 100_000,
      seed: 42,
      now: Date.UTC(2026, 0, 1),
      to: { name: "P", address: "p@example.com" },
    });
    const ms = performance.now() - started;
    expect(mailbox.size).toBe(100_000);
    expect(ms).toBeLessThan(30_000);
    const newest = mailbox.allIndex.newestFirst().next().value;
    const text = newest?.raw() ?? "";
    expect(text).toMatch(/^From: /);
    expect(newest?.raw()).toBe(text);
    const again = make();
    generateMessages(again, {
      count: 50,
      seed: 42,
      now: Date.UTC(2026, 0, 1),
      to: { name: "P", address: "p@example.com" },
    });
    const other = make();
    generateMessages(other, {
      count: 50,
      seed: 42,
      now: Date.UTC(2026, 0, 1),
      to: { name: "P", address: "p@example.com" },
    });
    expect([...again.allIndex.oldestFirst()].map((m) => m.raw())).toEqual(
      [...other.allIndex.oldestFirst()].map((m) => m.raw()),
    );
    const withUnsubscribe = [...again.allIndex.oldestFirst()].filter((m) =>
      m.raw().includes("List-Unsubscribe:"),
    );
    expect(withUnsubscribe.length).toBeGreaterThan(5);
    const html =
      withUnsubscribe[0] === undefined
        ? undefined
        : bodies(parseMime(toBinary(withUnsubscribe[0].raw()))).html;
    expect(html).toContain("<p>");
  }, 60_000);
});
