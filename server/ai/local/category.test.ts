import { describe, expect, it } from "vitest";
import { analyzeEmail } from "./analyze.ts";

/** Spam relayed by a mailing-list server is no newsletter; a publisher's own newsletter stays one (issue 18). */

const NOW = new Date("2025-04-07T09:00:00Z");

describe("category of list-delivered mail", () => {
  it("calls an ad relayed by a discussion list a promotion", () => {
    const ad = analyzeEmail({
      from: { name: "Steve Murphy", address: "offers@fastnet-deals.example" },
      subject: "[linux-users] New Internet Service Provider",
      bodyText:
        "Hello:\n\nAre you satisfied with your ISP? Our internet service gives you five email addresses at a low monthly fee of just $14.95.\n\nIf you do not wish any more mailings please send a blank email.\n\n_______________________________________________\nlinux-users mailing list\nhttp://lists.example.org/mailman/listinfo/linux-users",
      bodyHtml: null,
      receivedAt: NOW,
      headers: { listId: "<linux-users.lists.example.org>", precedence: "list" },
    });
    expect(ad.category).toBe("promotions");
  });

  it("keeps a publisher's own newsletter with shouted headings a newsletter", () => {
    const news = analyzeEmail({
      from: { name: "Gadget Daily", address: "editor@gadgetdaily.example" },
      subject: "[Gadget Daily] Batteries that last",
      bodyText:
        "LOOK OVER HERE\nToday's pick: a phone battery that lasts a week.\n\nHAPPY FUN STUFF\nA game for the commute.\n\nBYTE ME NOW\nReaders' questions answered.\n\nTo unsubscribe, visit gadgetdaily.example/unsubscribe",
      bodyHtml: null,
      receivedAt: NOW,
      headers: {
        listUnsubscribe: "<mailto:leave-daily@lists.gadgetdaily.example>",
        listId: "<daily.lists.gadgetdaily.example>",
      },
    });
    expect(news.category).toBe("newsletter");
  });
});
