import { describe, expect, it } from "vitest";
import { searchAsksForArchived } from "./mail-queries.ts";

describe("searchAsksForArchived", () => {
  it("is true only for a search naming archived mail", () => {
    expect(searchAsksForArchived("in:archive")).toBe(true);
    expect(searchAsksForArchived("budget IN:Archive")).toBe(true);
    expect(searchAsksForArchived("from:priya -in:inbox")).toBe(true);
    expect(searchAsksForArchived(undefined)).toBe(false);
    expect(searchAsksForArchived("")).toBe(false);
    expect(searchAsksForArchived("in:inbox")).toBe(false);
    expect(searchAsksForArchived("archive")).toBe(false);
    expect(searchAsksForArchived("-in:archive")).toBe(false);
  });
});
