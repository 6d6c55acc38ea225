import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../test/databases.ts";
import type { LiveNotice } from "./notices.ts";
import { createPostgresTransport, type NoticeTransport } from "./transport.ts";

const quiet = { warn: () => undefined };

describe("the PostgreSQL notice transport", () => {
  let t: TestDatabase | undefined;
  const transports: NoticeTransport[] = [];
  afterEach(async () => {
    for (const transport of transports.splice(0)) await transport.close();
    await t?.destroy();
    t = undefined;
  });

  async function pair() {
    t = await openTestDatabase("postgres");
    if (t.config.kind !== "postgres") throw new Error("expected PostgreSQL");
    const db = t.database.db;
    const statements = { count: 0 };
    // Counts the sender's statements: each NOTIFY batch is one db.execute.
    const counted = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== "execute") return Reflect.get(target, prop, receiver);
        return (query: Parameters<typeof db.execute>[0]) => {
          statements.count += 1;
          return target.execute(query);
        };
      },
    });
    const sender = createPostgresTransport({ db: counted, url: t.config.url, log: quiet });
    const receiver = createPostgresTransport({ db, url: t.config.url, log: quiet });
    transports.push(sender, receiver);
    const heard: LiveNotice[] = [];
    await receiver.listen(
      (notice) => heard.push(notice),
      () => undefined,
    );
    return { sender, heard, statements };
  }

  it("a burst of notices arrives in order, every one, from fewer statements than notices", async () => {
    const { sender, heard, statements } = await pair();
    const userId = randomUUID();
    const burst: LiveNotice[] = Array.from({ length: 40 }, (_, i) => ({
      kind: "mail.changed",
      userId,
      ids: [randomUUID()],
      change: { isRead: i % 2 === 0 },
    }));
    await Promise.all(burst.map((notice) => sender.publish(notice)));
    await expect.poll(() => heard.length, { timeout: 5_000 }).toBe(burst.length);
    expect(heard).toEqual(burst);
    // The first goes alone; the 39 published while it was on its way share the next statement.
    expect(statements.count).toBe(2);
  });

  it("a notice published while a batch is on its way goes in the next one, after it", async () => {
    const { sender, heard } = await pair();
    const userId = randomUUID();
    const first: LiveNotice = { kind: "overflow", userId };
    const second: LiveNotice = { kind: "sync.progress", userId, accountId: randomUUID() };
    const one = sender.publish(first);
    await Promise.resolve();
    const two = sender.publish(second);
    await Promise.all([one, two]);
    await expect.poll(() => heard.length, { timeout: 5_000 }).toBe(2);
    expect(heard).toEqual([first, second]);
  });

  it("a failed NOTIFY rejects every publish of its batch", async () => {
    const { sender } = await pair();
    await t?.database.close();
    const userId = randomUUID();
    const results = await Promise.allSettled([
      sender.publish({ kind: "overflow", userId }),
      sender.publish({ kind: "overflow", userId: randomUUID() }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
