import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventBus } from "../../events.ts";
import { JobQueue } from "../../jobs/queue.ts";
import { createClock } from "../../lib/clock.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { createEmail, signedInUser } from "../../test/factories.ts";
import { createMailServices } from "../services.ts";
import { defineUnsubscribeJob } from "./job.ts";

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.each(BACKENDS)("unsubscribe as a durable job on %s", (kind) => {
  let t: TestDatabase;
  let queue: JobQueue;
  let target: http.Server;
  let host: string;
  const bodies: string[] = [];

  beforeAll(async () => {
    target = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString("utf8");
      });
      req.on("end", () => {
        bodies.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    host = `127.0.0.1:${(target.address() as AddressInfo).port}`;
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await queue?.stop();
    await t?.destroy();
    await new Promise((resolve) => target?.close(resolve));
  });

  it("the request is answered as processing; a worker's job completes it", async () => {
    const db = t.database.db;
    const clock = createClock();
    const events = createEventBus(quiet);
    const providerClient = () => {
      throw new Error("no provider call expected for one-click");
    };
    queue = new JobQueue(t.database, { pollingIntervalSeconds: 0.5, log: quiet });
    const { scheduleUnsubscribe } = defineUnsubscribeJob(queue, {
      db,
      clock,
      events,
      providerClient,
      allowHosts: [host],
    });
    await queue.start();
    await queue.work();
    const mail = createMailServices({
      db,
      clock,
      events,
      providerClient,
      sync: { requestSync: async () => undefined, syncStatus: async () => [] },
      unsubscribeAllowHosts: [host],
      log: quiet,
      scheduleUnsubscribe,
    });
    const { user, account } = await signedInUser(db);
    const email = await createEmail(db, account, {
      fromAddress: "list@news.example",
      listUnsubscribe: `<http://${host}/u>`,
      listUnsubscribePost: "List-Unsubscribe=One-Click",
    });
    const answer = await mail.unsubscriber.request(user.id, email.id);
    expect(answer).toMatchObject({ status: "processing", method: "one_click" });
    let status = answer.status;
    for (let i = 0; i < 100 && status === "processing"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await mail.unsubscriber.list(user.id))[0]?.status ?? "processing";
    }
    expect(status).toBe("done");
    expect(bodies).toEqual(["List-Unsubscribe=One-Click"]);
  });
});
