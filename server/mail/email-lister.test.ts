import { describe, expect, it } from "vitest";
import { type JsonListRow, newestFirst } from "./email-lister.ts";

const row = (id: string, receivedAt: string) => ({ id, received_at: receivedAt }) as JsonListRow;

describe("newestFirst", () => {
  it("orders a page by received time, newest first, then by id descending, whatever order it came in", () => {
    const rows = [
      row("00000000-0000-4000-8000-00000000000a", "2026-11-20T10:00:00.5+00:00"),
      row("00000000-0000-4000-8000-00000000000c", "2026-11-21T09:00:00+00:00"),
      row("00000000-0000-4000-8000-00000000000f", "2026-11-20T10:00:00.500+00:00"),
      row("00000000-0000-4000-8000-00000000000b", "2026-11-20T11:00:00.001+01:00"),
    ];
    expect(newestFirst(rows).map((r) => r.id.slice(-1))).toEqual(["c", "f", "a", "b"]);
  });
});
