import { describe, expect, it } from "vitest";
import { type ClassifiableEmail, classifyBucket } from "./bucket-classifier.ts";

const base: ClassifiableEmail = {
  from: "Someone <someone@acme-corp.example>",
  subject: "Hello",
  snippet: "",
};
const withAi = (aiAnalysis: ClassifiableEmail["aiAnalysis"], over: Partial<ClassifiableEmail> = {}) => ({
  ...base,
  ...over,
  aiAnalysis,
});

describe("classifyBucket follows spec section 4 in order", () => {
  const cases: Array<[string, ClassifiableEmail, ReturnType<typeof classifyBucket>]> = [
    // 1. archived by the AI: skipped
    ["1 archived is skipped", withAi({ isArchived: true, bucketCategory: "work" }), null],
    // 2. bucketCategory names a bucket
    ["2 bucketCategory work", withAi({ bucketCategory: "work", category: "social" }), "work"],
    ["2 bucketCategory is case-insensitive", withAi({ bucketCategory: "Newsletters" }), "newsletters"],
    [
      "2 bucketCategory that is no bucket falls through",
      withAi({ bucketCategory: "urgent", category: "social" }),
      "social",
    ],
    // 3. category
    ["3 personal from a person", withAi({ category: "personal" }), "personal"],
    ["3 personal from noreply", withAi({ category: "personal" }, { from: "noreply@shop.example" }), "other"],
    [
      "3 personal from no-reply",
      withAi({ category: "personal" }, { from: "no-reply@shop.example" }),
      "other",
    ],
    [
      "3 personal from notification",
      withAi({ category: "personal" }, { from: "notification@app.example" }),
      "other",
    ],
    ["3 work", withAi({ category: "work" }), "work"],
    ["3 business", withAi({ category: "business" }), "work"],
    ["3 newsletter", withAi({ category: "newsletter" }), "newsletters"],
    ["3 newsletters", withAi({ category: "newsletters" }), "newsletters"],
    ["3 promotions", withAi({ category: "promotions" }), "promotions"],
    ["3 marketing", withAi({ category: "marketing" }), "promotions"],
    ["3 social", withAi({ category: "social" }), "social"],
    ["3 anything else", withAi({ category: "finance", microsoftCategory: "work" }), "other"],
    // 4. microsoftCategory
    ["4 newsletters", withAi({ microsoftCategory: "newsletters" }), "newsletters"],
    ["4 subscription", withAi({ microsoftCategory: "subscription" }), "newsletters"],
    ["4 promotions", withAi({ microsoftCategory: "promotions" }), "promotions"],
    ["4 marketing", withAi({ microsoftCategory: "marketing" }), "promotions"],
    ["4 deals", withAi({ microsoftCategory: "deals" }), "promotions"],
    ["4 work", withAi({ microsoftCategory: "work" }), "work"],
    ["4 business", withAi({ microsoftCategory: "business" }), "work"],
    ["4 social", withAi({ microsoftCategory: "social" }), "personal"],
    ["4 primary", withAi({ microsoftCategory: "primary" }), "personal"],
    ["4 others", withAi({ microsoftCategory: "other" }), "other"],
    // 5. heuristics
    ["5 social site sender", { ...base, from: "LinkedIn <messages-noreply@linkedin.com>" }, "social"],
    ["5 social phrase", { ...base, subject: "Dana tagged you in a photo" }, "social"],
    ["5 newsletter cue", { ...base, subject: "The Weekly Digest #42" }, "newsletters"],
    ["5 unsubscribe cue", { ...base, snippet: "Click here to unsubscribe from these emails" }, "newsletters"],
    ["5 sale cue", { ...base, subject: "Summer sale starts now" }, "promotions"],
    ["5 discount cue", { ...base, snippet: "Take 30% off everything" }, "promotions"],
    ["5 work keyword meeting", { ...base, subject: "Meeting moved to 3pm" }, "work"],
    ["5 work keyword invoice", { ...base, subject: "Invoice 2231 attached" }, "work"],
    ["5 work keyword budget", { ...base, snippet: "the Q3 budget needs sign-off" }, "work"],
    [
      "5 work-tool sender",
      { ...base, from: "Jira <jira@acme.atlassian.net>", subject: "ABC-12 updated" },
      "work",
    ],
    ["5 reply cue", { ...base, subject: "Re: weekend plans" }, "personal"],
    ["5 thanks cue", { ...base, snippet: "Thanks so much for yesterday" }, "personal"],
    ["5 simple domain", { ...base, from: "Mum <mum.smith@gmail.com>", subject: "Photos" }, "personal"],
    ["5 otherwise other", { ...base, subject: "Your parcel", snippet: "Tracking 1Z999" }, "other"],
  ];

  it.each(cases)("%s", (_name, email, expected) => {
    expect(classifyBucket(email)).toBe(expected);
  });

  it("treats missing, null and empty hints as absent", () => {
    expect(classifyBucket({ ...base, aiAnalysis: null, subject: "Meeting notes" })).toBe("work");
    expect(classifyBucket(withAi({ bucketCategory: "", category: "  ", microsoftCategory: null }))).toBe(
      "other",
    );
  });
});
