import { describe, expect, it } from "vitest";
import { analyzeEmail } from "../analyze.ts";
import { spamLogOdds } from "./score.ts";
import { spamTokens } from "./tokens.ts";

/** The spam word model (decision 0041): real spam words weigh towards spam, list talk away from it. */

const NOW = new Date("2025-04-07T09:00:00Z");

describe("spam words", () => {
  it("reads subject words apart from body words, digits by shape, and unspaced scripts by character", () => {
    const tokens = spamTokens("Save $50 today", "Only $19.95 a month. 限定");
    expect(tokens).toContain("s:save");
    expect(tokens).toContain("s:99");
    expect(tokens).toContain("99");
    expect(tokens).toContain("限");
    expect(tokens).not.toContain("save");
  });

  it("scores an unsolicited ad above a mailing-list discussion post", () => {
    const ad = spamLogOdds(
      "Refinance now and cut your monthly payment",
      "Dear Homeowner,\nInterest rates are at their lowest point in 40 years. We help you find the best mortgage rate, " +
        "guaranteed. Apply online today, it only takes one minute and there is no obligation. Click here to get your free " +
        "quote. To be removed from our mailing list, reply with REMOVE in the subject.",
    );
    const post = spamLogOdds(
      "Re: kernel panic after upgrading to 2.4.19",
      "I had the same problem on my laptop. It turned out the new kernel was built without support for my SCSI controller, " +
        "so the root filesystem could not be mounted. Rebuild with the driver compiled in and check your lilo.conf before " +
        "you reboot.\n\n--\nIrish Linux Users' Group mailing list",
    );
    expect(ad).toBeGreaterThan(2);
    expect(post).toBeLessThan(0);
  });

  it("keeps list-relayed spam out of Newsletters when no selling cue gives it away", () => {
    const relayed = analyzeEmail({
      from: { name: "Dev Team", address: "pr4411@netmail.example" },
      subject: "[avfs] Software development outsourcing",
      bodyText:
        "Dear Sir, our company offers high quality software development services at competitive prices. We have a team " +
        "of experienced programmers and can start working on your project immediately. Please contact us for more information.",
      bodyHtml: null,
      receivedAt: NOW,
      headers: { listId: "<avfs.lists.example>", precedence: "list" },
    });
    expect(relayed.category).toBe("promotions");
  });
});
