import { describe, expect, it } from "vitest";
import { agentPreferencesSchema, RESPONSE_STYLES } from "../../../contract/ai.ts";
import { improveLocally } from "./local-improve.ts";
import { cleanSubject, composeLocally, draftRepliesLocally } from "./local-replies.ts";

/** Template text quality (issue 18): no placeholders, no glued sentences, no quoted list tags. */

const PREFS = agentPreferencesSchema.parse({});
const GLUED = /[a-z0-9)"'\]][ \t]+(?:Thank you|Thanks|Please|Best regards|Could you|Let me know)\b/;

describe("local templates", () => {
  it("never quotes a list tag or reply prefix from the subject", () => {
    expect(cleanSubject("[zzzzteana] Re: Argh!")).toBe("Argh!");
    expect(cleanSubject("Re: [ILUG] Fwd: eircom adsl modems")).toBe("eircom adsl modems");
    for (const style of RESPONSE_STYLES) {
      const replies = draftRepliesLocally(
        {
          senderName: "Wintermute",
          senderAddress: "wintermute@example.ie",
          subject: "Re: [ILUG] eircom adsl modems",
          body: "Has anyone got the new modem working with Linux?",
          keyPoints: [],
        },
        PREFS,
        style,
      );
      for (const reply of replies) {
        expect(reply).not.toMatch(/\[ILUG\]|"Re:/);
        expect(reply).not.toMatch(/Thanks about/);
      }
    }
  });

  it("never glues a subject that opens like a sentence, nor a run-on sentence of the mail, into its own text", () => {
    for (const subject of [
      "Please review the contract",
      "Thanks for the help",
      "Could you check the numbers",
    ]) {
      for (const text of composeLocally(subject, "", PREFS)) {
        expect(text).not.toMatch(GLUED);
        expect(text).toContain(`"${subject}"`);
      }
    }
    const source = {
      senderName: "Dana Reyes",
      senderAddress: "dana@example.org",
      subject: "Budget numbers Please confirm",
      body: "I sent the budget sheet this morning Could you confirm the totals by Friday\n\nDana",
      keyPoints: [],
    };
    for (const style of RESPONSE_STYLES) {
      for (const reply of draftRepliesLocally(source, PREFS, style)) {
        expect(reply).not.toMatch(GLUED);
        expect(reply).not.toContain("morning Could you");
      }
    }
  });

  it("offers compose suggestions without placeholders, and closes a typed draft before the next sentence", () => {
    const empty = composeLocally("Q3 planning", "", PREFS);
    const typed = composeLocally("", "i need a bit more time", PREFS);
    for (const text of [...empty, ...typed]) {
      expect(text).not.toMatch(/\[[^\]]*\]/);
      expect(text).not.toMatch(GLUED);
    }
    expect(typed[2]).toContain("I need a bit more time.");
  });

  it("does not let a sender's name line run into their request", () => {
    const [first] = draftRepliesLocally(
      {
        senderName: "Rick",
        senderAddress: "rick@example.com",
        subject: "phones",
        body: "Rick Moen\nPlease rotate the phone numbers on the wiki before Friday.",
        keyPoints: [],
      },
      PREFS,
      "professional",
    );
    expect(first).not.toContain("Rick Moen Please");
  });

  it("improves text without gluing a line into the next sentence", () => {
    expect(improveLocally("i need a bit more time on this one\nthanks", "Professional")).not.toMatch(GLUED);
  });
});
