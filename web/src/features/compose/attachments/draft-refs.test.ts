import { describe, expect, it } from "vitest";
import { savedSwaps, swapRefs } from "./draft-refs.ts";

describe("a draft save's files taking the place of compose's refs", () => {
  it("swaps each sent ref for the draft's file at its position, leaving newer files alone", () => {
    const upload = { kind: "upload" as const, uploadId: "u1" };
    const kept = { kind: "draft" as const, attachmentId: "old" };
    const swaps = savedSwaps(
      [kept, upload],
      [
        { attachmentId: "d1", fileName: "a", contentType: "text/plain", size: 1 },
        { attachmentId: "d2", fileName: "b", contentType: "text/plain", size: 1 },
      ],
    );
    const later = { kind: "upload" as const, uploadId: "u2" };
    const items = [
      { key: "1", ref: kept },
      { key: "2", ref: upload },
      { key: "3", ref: later },
      { key: "4" },
    ];
    expect(swapRefs(items, swaps)).toEqual([
      { key: "1", ref: { kind: "draft", attachmentId: "d1" } },
      { key: "2", ref: { kind: "draft", attachmentId: "d2" } },
      { key: "3", ref: later },
      { key: "4" },
    ]);
  });
});
