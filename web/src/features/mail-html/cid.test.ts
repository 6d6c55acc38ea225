import { describe, expect, it } from "vitest";
import { cidTarget, contentIdKey } from "./cid.ts";

describe("cid: references", () => {
  const images = new Map([["logo@example.com", "http://app.test/api/attachments/t1"]]);

  it("finds the part a cid: URL names, as RFC 2392 writes it", () => {
    expect(contentIdKey("<Logo@Example.com>")).toBe("logo@example.com");
    expect(cidTarget("cid:logo@example.com", images)).toBe("http://app.test/api/attachments/t1");
    expect(cidTarget(" CID:Logo%40Example.com ", images)).toBe("http://app.test/api/attachments/t1");
  });

  it("leaves anything else alone", () => {
    expect(cidTarget("cid:missing@x", images)).toBeUndefined();
    expect(cidTarget("https://logo@example.com", images)).toBeUndefined();
    expect(cidTarget("cid:%E0%A4%A", images)).toBeUndefined();
  });
});
