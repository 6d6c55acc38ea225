import { describe, expect, it } from "vitest";
import { BADGE_ICONS } from "../../contract/game.ts";
import { BADGES } from "./catalogue.ts";

describe("badge catalogue", () => {
  it("names each badge's picture from the icons the client draws, never an emoji", () => {
    for (const badge of BADGES) {
      expect(badge.icon, badge.id).not.toMatch(/\p{Extended_Pictographic}/u);
      expect(BADGE_ICONS, badge.id).toContain(badge.icon);
    }
  });
});
