import { describe, expect, it } from "vitest";
import { placeLabel } from "./game-api.ts";

describe("placeLabel", () => {
  it("names the podium and numbers the rest (spec section 2)", () => {
    expect([1, 2, 3, 4, 10, 100].map(placeLabel)).toEqual([
      "1st Place",
      "2nd Place",
      "3rd Place",
      "#4",
      "#10",
      "#100",
    ]);
  });
});
