import { describe, expect, it } from "vitest";
import { focusTarget, initiallyExpanded } from "./conversation-order.ts";

const m = (id: string, isRead: boolean) => ({ id, isRead });

describe("a conversation as it opens", () => {
  it("expands the unread messages and keeps older read ones on one line", () => {
    const messages = [m("a", true), m("b", true), m("c", false)];
    expect([...initiallyExpanded(messages)]).toEqual(["c"]);
    expect(focusTarget(messages)).toBe("c");
  });

  it("expands every unread message and the newest, and scrolls to the newest unread", () => {
    const messages = [m("a", false), m("b", false), m("mine", true)];
    expect([...initiallyExpanded(messages)]).toEqual(["a", "b", "mine"]);
    expect(focusTarget(messages)).toBe("b");
  });

  it("expands the newest when everything is read", () => {
    const messages = [m("a", true), m("b", true)];
    expect([...initiallyExpanded(messages)]).toEqual(["b"]);
    expect(focusTarget(messages)).toBe("b");
    expect([...initiallyExpanded([])]).toEqual([]);
    expect(focusTarget([])).toBeNull();
  });
});
