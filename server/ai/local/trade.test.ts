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

describe("trades of IT companies, clubs and fused four-letter names (part 6, round 10)", () => {
  it("reads an IT company's trade and a club's short name", () => {
    expect(readersTradeWords(["rhian@kestrelbay-it.co.uk"])?.test("the receipt printer")).toBe(true);
    expect(sendersOtherTrade("penmarrowseals-sc.org.uk", ["rhian@kestrelbay-it.co.uk"])).toBe(true);
  });

  it("reads a four-letter trade ending a long fused name, but not a short word's tail", () => {
    expect(sendersOtherTrade("kirkbyvets.co.uk", ["bronwen@fellsidephysio.co.uk"])).toBe(true);
    expect(readersTradeWords(["ops@covet.com"])).toBeNull();
    expect(readersTradeWords(["ops@summit.com"])).toBeNull();
  });
});

describe("a country's or an open suffix names no trade", () => {
  it("reads no IT company into an Italian domain, and no club into a .sc one, but a university from .ac.uk", () => {
    expect(readersTradeWords(["giulia@azienda.it"])).toBeNull();
    expect(readersTradeWords(["ops@harbourline.sc"])).toBeNull();
    expect(readersTradeWords(["j.smith@ox.ac.uk"])?.test("the class trip")).toBe(true);
  });
});
