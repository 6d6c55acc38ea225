import { describe, expect, it } from "vitest";
import {
  formatRecipient,
  isValidAddress,
  joinRecipients,
  parseEntry,
  parseRecipients,
  recipientError,
  splitEntries,
} from "./parse-recipients.ts";

describe("recipient chips from typed text", () => {
  it("splits on commas and semicolons, keeping the unfinished rest", () => {
    expect(splitEntries("a@x.io, b@y.io; c")).toEqual({ complete: ["a@x.io", "b@y.io"], rest: " c" });
    expect(splitEntries(" , ;a@x.io,")).toEqual({ complete: ["a@x.io"], rest: "" });
  });

  it("keeps a quoted name with a comma in one entry", () => {
    expect(parseRecipients('"Doe, Jane" <jane@x.io>, bob@y.io')).toEqual([
      { raw: '"Doe, Jane" <jane@x.io>', name: "Doe, Jane", address: "jane@x.io", valid: true },
      { raw: "bob@y.io", name: "", address: "bob@y.io", valid: true },
    ]);
    // Still being typed: the comma inside the open quote does not split.
    expect(splitEntries('"Doe, Ja')).toEqual({ complete: [], rest: '"Doe, Ja' });
  });

  it('reads "Name <a@b>" and <a@b>', () => {
    expect(parseEntry("Jane Doe <jane@x.io>")).toMatchObject({
      name: "Jane Doe",
      address: "jane@x.io",
      valid: true,
    });
    expect(parseEntry("<jane@x.io>")).toMatchObject({ name: "", address: "jane@x.io", valid: true });
    expect(parseEntry("Jane <a;b@x.io>").valid).toBe(false);
  });

  it("marks malformed addresses invalid and names the first in the error", () => {
    for (const bad of [
      "not an address",
      "a@b",
      "@x.io",
      "a@@x.io",
      "a@x..io",
      "a@x.io.",
      "Jane <>",
      '"Jane <j@x.io>',
    ])
      expect(parseEntry(bad).valid, bad).toBe(false);
    expect(isValidAddress(`${"a".repeat(316)}@x.io`)).toBe(false);
    expect(recipientError("ok@x.io, not an address, also bad")).toBe(
      '"not an address" is not a valid email address',
    );
    expect(recipientError("ok@x.io; Jane <j@x.io>")).toBeNull();
    expect(recipientError("")).toBeNull();
  });

  it("writes picked suggestions the server reads back", () => {
    expect(formatRecipient("Jane Doe", "jane@x.io")).toBe("Jane Doe <jane@x.io>");
    expect(formatRecipient("Doe, Jane", "jane@x.io")).toBe('"Doe, Jane" <jane@x.io>');
    expect(formatRecipient("", "jane@x.io")).toBe("jane@x.io");
    const text = joinRecipients(parseRecipients(formatRecipient("Doe, Jane", "jane@x.io")), "bob@y.io ");
    expect(text).toBe('"Doe, Jane" <jane@x.io>, bob@y.io');
    expect(parseRecipients(text).map((r) => r.address)).toEqual(["jane@x.io", "bob@y.io"]);
  });

  it("reads a long pasted list in linear time", () => {
    const list = Array.from({ length: 20_000 }, (_, i) => `p${i}@x.io`).join(", ");
    const started = performance.now();
    expect(parseRecipients(list)).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
