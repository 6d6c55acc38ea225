import { describe, expect, it } from "vitest";
import { keyCommand, SWIPE_THRESHOLD_PX, swipeAction } from "./actions.ts";

const key = (k: string, mods: Partial<Pick<KeyboardEvent, "ctrlKey" | "metaKey" | "altKey">> = {}) =>
  keyCommand({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe("swipeAction", () => {
  it("right archives, left deletes, up stars, down flags, once past the threshold", () => {
    const t = SWIPE_THRESHOLD_PX;
    expect(swipeAction(t, 0, 400)).toBe("archive");
    expect(swipeAction(-t, 10, 400)).toBe("delete");
    expect(swipeAction(5, -t, 400)).toBe("star");
    expect(swipeAction(-5, t, 400)).toBe("flag");
  });

  it("a short drag does nothing; the longer axis decides", () => {
    expect(swipeAction(SWIPE_THRESHOLD_PX - 1, 0, 400)).toBeNull();
    expect(swipeAction(0, 0, 400)).toBeNull();
    expect(swipeAction(150, -120, 400)).toBe("archive");
    expect(swipeAction(120, -150, 400)).toBe("star");
  });

  it("on a narrow card 30% of its width is enough", () => {
    // A 240 px card: 72 px.
    expect(swipeAction(72, 0, 240)).toBe("archive");
    expect(swipeAction(71, 0, 240)).toBeNull();
  });
});

describe("keyCommand", () => {
  it("maps the dashboard's letters and the arrows", () => {
    expect(key("e")).toBe("archive");
    expect(key("E")).toBe("archive");
    expect(key("ArrowRight")).toBe("archive");
    expect(key("#")).toBe("delete");
    expect(key("Delete")).toBe("delete");
    expect(key("ArrowLeft")).toBe("delete");
    expect(key("s")).toBe("star");
    expect(key("ArrowUp")).toBe("star");
    expect(key("f")).toBe("flag");
    expect(key("ArrowDown")).toBe("flag");
  });

  it("z, u and Ctrl/Cmd+Z undo; other modified keys do nothing", () => {
    expect(key("z")).toBe("undo");
    expect(key("u")).toBe("undo");
    expect(key("z", { ctrlKey: true })).toBe("undo");
    expect(key("z", { metaKey: true })).toBe("undo");
    expect(key("e", { ctrlKey: true })).toBeNull();
    expect(key("e", { altKey: true })).toBeNull();
    expect(key("x")).toBeNull();
  });
});
