import { describe, expect, it } from "vitest";
import { analyzeEmail } from "./analyze.ts";

/** An ask's negative words name the task, not a mood (issue 18: plain requests never read negative). */

const label = (subject: string, body: string) =>
  analyzeEmail({
    from: { name: "Jordan Smith", address: "jordan.smith@example.com" },
    subject,
    bodyText: body,
    bodyHtml: null,
  }).sentiment;

describe("plain asks", () => {
  it("reads requests about errors, delays and missing items as not negative", () => {
    expect(label("", "Could you look at the error in the deploy log when you get a minute?")).not.toBe(
      "negative",
    );
    expect(
      label(
        "Boston order",
        "Hi Sam,\n\nCan we talk about the delay on the Boston order tomorrow?\n\nThanks,\nJo",
      ),
    ).not.toBe("negative");
    expect(label("", "Is there a problem with me leaving early on Friday?")).not.toBe("negative");
    expect(label("", "Could you pass the client's complaint on to Dana so she can answer it?")).not.toBe(
      "negative",
    );
  });

  it("keeps an ask that carries an attitude negative", () => {
    expect(label("", "Why is my refund still not here after three weeks? This is unacceptable.")).toBe(
      "negative",
    );
    expect(label("", "Could you explain why the order arrived damaged again?")).toBe("negative");
    expect(label("", "Can you stop sending me this terrible spam?")).toBe("negative");
  });

  it("leaves a statement of a problem to the model", () => {
    expect(label("", "The shipment is late again and the customer is furious.")).toBe("negative");
  });
});
