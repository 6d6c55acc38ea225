import { describe, expect, it } from "vitest";
import { enterAction, highlightedIndex } from "./suggestion-keys.ts";

describe("Enter in a recipient field with suggestions", () => {
  it("picks the first suggestion while the list is open and nothing was arrowed to", () => {
    expect(highlightedIndex(true, -1, 3)).toBe(0);
    expect(enterAction(true, -1, 3, "an")).toEqual({ kind: "pick", index: 0 });
  });

  it("picks the option the arrows moved to", () => {
    expect(enterAction(true, 2, 3, "an")).toEqual({ kind: "pick", index: 2 });
    // A stale index from a longer list falls back to the first.
    expect(enterAction(true, 5, 2, "an")).toEqual({ kind: "pick", index: 0 });
  });

  it("commits the typed text when the list is closed or empty, and does nothing on an empty field", () => {
    expect(highlightedIndex(false, 1, 3)).toBe(-1);
    expect(enterAction(false, -1, 3, "bo@example.com")).toEqual({ kind: "commit" });
    expect(enterAction(true, -1, 0, "bo@example.com")).toEqual({ kind: "commit" });
    expect(enterAction(false, -1, 0, "  ")).toEqual({ kind: "none" });
  });
});
