import { describe, expect, it } from "vitest";
import type { Email } from "../../contract/mail.ts";
import { createLiveHub, type StreamSink } from "./hub.ts";

const ALICE = "00000000-0000-4000-8000-00000000000a";
const BOB = "00000000-0000-4000-8000-00000000000b";
const ID1 = "00000000-0000-4000-8000-000000000001";
const ID2 = "00000000-0000-4000-8000-000000000002";

interface Parsed {
  id: string | undefined;
  event: string;
  data: unknown;
}

/** A sink that keeps what was written, parsed back into events as a tab would read them. */
function sink() {
  let text = "";
  let ended = false;
  const s: StreamSink & { events(): Parsed[]; ended(): boolean } = {
    write: (t) => {
      text += t;
    },
    buffered: () => 0,
    end: () => {
      ended = true;
    },
    events() {
      return text
        .split("\n\n")
        .filter((block) => block.includes("event: "))
        .map((block) => {
          const field = (name: string) =>
            block
              .split("\n")
              .find((l) => l.startsWith(`${name}: `))
              ?.slice(name.length + 2);
          return { id: field("id"), event: field("event") ?? "", data: JSON.parse(field("data") ?? "null") };
        });
    },
    ended: () => ended,
  };
  return s;
}

function fakeRows(userId: string, ids: readonly string[]): Promise<Email[]> {
  // Only the ids matter to the hub: a row per id, tagged with its owner.
  return Promise.resolve(ids.map((id) => ({ id, subject: userId }) as unknown as Email));
}

describe("live hub", () => {
  it("sends each person only their own events, to every open tab", async () => {
    const hub = createLiveHub({ loadRows: fakeRows });
    const alice1 = sink();
    const alice2 = sink();
    const bob = sink();
    hub.open(ALICE, undefined, alice1);
    hub.open(ALICE, undefined, alice2);
    hub.open(BOB, undefined, bob);
    await hub.deliver({ kind: "mail.new", userId: ALICE, ids: [ID1] });
    await hub.deliver({ kind: "mail.changed", userId: BOB, ids: [ID2], change: { isArchived: true } });
    for (const tab of [alice1, alice2]) {
      const events = tab.events().map((e) => e.event);
      expect(events).toEqual(["ready", "mail.new"]);
      expect(tab.events()[1]?.data).toEqual({ emails: [{ id: ID1, subject: ALICE }] });
    }
    expect(bob.events().map((e) => e.event)).toEqual(["ready", "mail.changed"]);
    expect(bob.events()[1]?.data).toEqual({ ids: [ID2], change: { isArchived: true }, emails: [] });
    expect(hub.streams()).toBe(3);
    hub.close();
    expect(alice1.ended() && bob.ended()).toBe(true);
  });

  it("gives monotonic ids and resumes after the last id a tab saw", async () => {
    const hub = createLiveHub({ loadRows: fakeRows });
    const first = sink();
    const close = hub.open(ALICE, undefined, first);
    await hub.deliver({ kind: "mail.new", userId: ALICE, ids: [ID1] });
    const seen = first.events().at(-1)?.id;
    close();
    // Missed while the tab was away.
    await hub.deliver({ kind: "mail.new", userId: ALICE, ids: [ID2] });
    await hub.deliver({ kind: "sync.progress", userId: ALICE, accountId: ID1 });
    const again = sink();
    hub.open(ALICE, seen, again);
    const events = again.events();
    expect(events.map((e) => e.event)).toEqual(["mail.new", "sync.progress", "ready"]);
    expect(events[2]?.data).toEqual({ resumed: true });
    const seqs = [seen, ...events.map((e) => e.id)].map((id) => Number(id?.split(".")[1]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs.slice(0, 3)).size).toBe(3);
    hub.close();
  });

  it("tells the tab to refetch when it cannot replay: another process or restart, or a full buffer", async () => {
    const hub = createLiveHub({ loadRows: fakeRows, ringSize: 2 });
    const foreign = sink();
    hub.open(ALICE, "someoneelse.3", foreign);
    expect(foreign.events().map((e) => [e.event, e.data])).toEqual([
      ["refetch", { reason: "gap" }],
      ["ready", { resumed: false }],
    ]);
    const tab = sink();
    const close = hub.open(ALICE, undefined, tab);
    const start = tab.events().at(-1)?.id;
    close();
    for (let i = 0; i < 3; i++) await hub.deliver({ kind: "mail.new", userId: ALICE, ids: [ID1] });
    const late = sink();
    hub.open(ALICE, start, late);
    expect(late.events().map((e) => e.event)).toEqual(["refetch", "ready"]);
    hub.close();
  });

  it("turns an overflow or a failed row read into refetch, and a lost LISTEN into refetch for everyone", async () => {
    const hub = createLiveHub({ loadRows: () => Promise.reject(new Error("database down")) });
    const tab = sink();
    hub.open(ALICE, undefined, tab);
    await hub.deliver({ kind: "overflow", userId: ALICE });
    await hub.deliver({ kind: "mail.new", userId: ALICE, ids: [ID1] });
    hub.gapAll();
    await hub.deliver({ kind: "sync.progress", userId: ALICE, accountId: ID1 });
    expect(tab.events().map((e) => [e.event, e.data])).toEqual([
      ["ready", { resumed: false }],
      ["refetch", { reason: "overflow" }],
      ["refetch", { reason: "gap" }],
      ["refetch", { reason: "gap" }],
      ["sync.progress", { accountId: ID1 }],
    ]);
    hub.close();
  });

  it("sends keep-alive comments, ends old streams and drops a tab that stopped reading", async () => {
    const hub = createLiveHub({
      loadRows: fakeRows,
      keepAliveMs: 20,
      maxStreamMs: 150,
      maxBufferedBytes: 10,
    });
    let text = "";
    let ended = false;
    hub.open(ALICE, undefined, {
      write: (t) => {
        text += t;
      },
      buffered: () => 0,
      end: () => {
        ended = true;
      },
    });
    await new Promise((r) => setTimeout(r, 60));
    expect(text).toContain(":\n\n");
    await new Promise((r) => setTimeout(r, 150));
    expect(ended).toBe(true);
    let stuckEnded = false;
    hub.open(BOB, undefined, { write: () => undefined, buffered: () => 100, end: () => (stuckEnded = true) });
    await hub.deliver({ kind: "mail.new", userId: BOB, ids: [ID1] });
    expect(stuckEnded).toBe(true);
    expect(hub.streams()).toBe(0);
    hub.close();
  });
});
