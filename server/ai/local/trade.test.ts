import { describe, expect, it } from "vitest";
import { readersOrganisationNames, readersTradeWords, sendersOtherTrade } from "./trade.ts";

describe("the reader's trade from their domain", () => {
  it("reads a trade from a word of the domain's name", () => {
    expect(readersTradeWords(["hannah.brooks@ashgrove-primary.org.uk"])?.test("the Year 2 trip")).toBe(true);
    expect(readersTradeWords(["noor@larchfield-vets.co.uk"])?.test("your dog")).toBe(true);
  });

  it("reads a trade from the end of a fused name", () => {
    expect(readersTradeWords(["sam@oakleafgardens.com"])?.test("the allotment")).toBe(true);
  });

  it("names no trade for free mail or a name that says nothing", () => {
    expect(readersTradeWords(["sam.taylor@gmail.com"])).toBeNull();
    expect(readersTradeWords(["morgan@harbourline-freight.com"])).toBeNull();
  });

  it("does not read a trade into a word that merely ends like one", () => {
    expect(readersTradeWords(["ops@covet.com"])).toBeNull();
  });
});

describe("the reader's organisation name and the sender's trade", () => {
  it("reads the name of an organisation fused with its trade as people write it", () => {
    expect(readersOrganisationNames(["bronwen@fellsidephysio.co.uk"])).toEqual(["fellside"]);
    expect(readersOrganisationNames(["hannah.brooks@ashgrove-primary.org.uk"])).toEqual(["ashgrove"]);
  });

  it("tells a sender from another trade, but not one from the reader's own trade or free mail", () => {
    const reader = ["bronwen@fellsidephysio.co.uk"];
    expect(sendersOtherTrade("kirkby-vets.co.uk", reader)).toBe(true);
    expect(sendersOtherTrade("castlegate-surgery.co.uk", reader)).toBe(false);
    expect(sendersOtherTrade("gmail.com", reader)).toBe(false);
  });
});
