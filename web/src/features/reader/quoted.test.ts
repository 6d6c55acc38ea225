import { describe, expect, it } from "vitest";
import { splitQuotedText } from "./quoted.ts";

describe("splitQuotedText", () => {
  it("folds Gmail's attribution and the quote below it", () => {
    const text = [
      "Sounds good, see you then.",
      "",
      "On Mon, 3 Jun 2024 at 10:00, Dana Field <dana@example.org> wrote:",
      "> Can we meet on Friday?",
      "> Dana",
    ].join("\n");
    expect(splitQuotedText(text)).toEqual({
      main: "Sounds good, see you then.",
      quoted: [
        "On Mon, 3 Jun 2024 at 10:00, Dana Field <dana@example.org> wrote:",
        "> Can we meet on Friday?",
        "> Dana",
      ].join("\n"),
    });
  });

  it("folds an attribution wrapped over two lines", () => {
    const text =
      "Yes.\r\n\r\nOn Mon, 3 Jun 2024 at 10:00, Dana Field\r\n<dana@example.org> wrote:\r\n> Friday?";
    const { main, quoted } = splitQuotedText(text);
    expect(main).toBe("Yes.");
    expect(quoted?.startsWith("On Mon, 3 Jun 2024")).toBe(true);
  });

  it("folds Mailwise's own reply separator and Outlook's", () => {
    expect(splitQuotedText("Thanks!\n\n--- Original Message ---\nCan you send the deck?")).toEqual({
      main: "Thanks!",
      quoted: "--- Original Message ---\nCan you send the deck?",
    });
    expect(splitQuotedText("Done.\n-----Original Message-----\nFrom: Dana\nSent: Monday").main).toBe("Done.");
  });

  it("folds Outlook's reply header, with or without its rule", () => {
    const header = ["From: Dana Field <dana@example.org>", "Sent: Monday, June 3, 2024 10:00 AM", "To: Me"];
    expect(splitQuotedText(["Agreed.", "", ...header, "", "Friday?"].join("\n")).main).toBe("Agreed.");
    const ruled = ["Agreed.", "", "________________________________", ...header, "Friday?"].join("\n");
    expect(splitQuotedText(ruled).quoted?.startsWith("________")).toBe(true);
  });

  it("folds a trailing '>' block with the short line that introduces it", () => {
    const text = "Here it is.\n\nDana wrote:\n> send it\n>\n> thanks\n";
    expect(splitQuotedText(text)).toEqual({
      main: "Here it is.",
      quoted: "Dana wrote:\n> send it\n>\n> thanks\n",
    });
  });

  it("keeps interleaved replies, forwards and messages that are all quote", () => {
    const interleaved = "> Friday?\nYes, Friday.\n> At ten?\nAt eleven.";
    expect(splitQuotedText(interleaved)).toEqual({ main: interleaved, quoted: null });
    const forward =
      "FYI\n\n---------- Forwarded message ---------\nFrom: Dana <d@example.org>\nDate: Mon\n\nHello";
    expect(splitQuotedText(forward)).toEqual({ main: forward, quoted: null });
    const allQuote = "On Mon, Dana wrote:\n> hello";
    expect(splitQuotedText(allQuote)).toEqual({ main: allQuote, quoted: null });
    expect(splitQuotedText("Just text.\nFrom: here to there.")).toEqual({
      main: "Just text.\nFrom: here to there.",
      quoted: null,
    });
  });

  it("stays linear on a megabyte of hostile lines", () => {
    const hostile = `${"On ".repeat(50_000)}\n${">".repeat(100_000)}\nx\n`.repeat(5);
    const started = performance.now();
    splitQuotedText(hostile);
    splitQuotedText(`${"> a\nb\n".repeat(100_000)}`);
    // Quadratic work on 200,000 lines would take minutes; linear work is milliseconds (the bound
    // is loose because the test machine is shared).
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
