import { describe, expect, it } from "vitest";
import { createSseParser, type SseEvent } from "./sse-parser.ts";

describe("SSE parser", () => {
  it("reads events split anywhere across chunks, skipping comments", () => {
    const got: SseEvent[] = [];
    const feed = createSseParser((e) => got.push(e));
    const text =
      'retry: 2000\n\n:\n\nid: a.1\nevent: mail.new\ndata: {"emails":[]}\n\nid: a.2\r\nevent: ready\r\ndata: {}\r\n\r\n';
    for (const ch of text) feed(ch);
    expect(got).toEqual([
      { id: "a.1", event: "mail.new", data: '{"emails":[]}' },
      { id: "a.2", event: "ready", data: "{}" },
    ]);
  });

  it("drops an endless line instead of growing without bound", () => {
    const got: SseEvent[] = [];
    const feed = createSseParser((e) => got.push(e), 10);
    feed("data: xxxxxxxxxxxxxxxxxxxxxxx");
    feed("\n\nevent: ready\ndata: {}\n\n");
    expect(got.map((e) => e.event)).toEqual(["ready"]);
  });
});
