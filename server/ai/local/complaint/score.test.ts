import { describe, expect, it } from "vitest";
import { analyzeEmail } from "../analyze.ts";
import { complains } from "../intent.ts";
import { COMPLAINT_MARGIN, complaintLogOdds, complaintLogOddsWith } from "./score.ts";

const GRIEVANCE = {
  subject: "the garage",
  text: "Lee, the garage is full of your kit again. I had to leave the car on the road all weekend and someone clipped the wing mirror. I know you're busy but I'm not parking on the street forever.",
};
const NEWS = {
  subject: "van",
  text: "Jo, the van is back on the drive and the keys are through the letterbox. Diesel is full and I've cleaned the cab out.",
};

function actionsFor(mail: { subject: string; text: string }) {
  return analyzeEmail(
    {
      from: { name: "Dee Marsh", address: "dee.marsh@example.net" },
      to: [{ name: "", address: "lee@marsh-joinery.example" }],
      subject: mail.subject,
      bodyText: mail.text,
      bodyHtml: null,
      receivedAt: new Date("2025-04-07T09:00:00Z"),
    },
    { userAddresses: ["lee@marsh-joinery.example"] },
  ).suggestedActions;
}

describe("the complaint-or-information word model", () => {
  it("adds the weight of each known word present to the bias, and nothing for unknown words", () => {
    const model = {
      bias: -3,
      weights: new Map([
        ["late", 2.5],
        ["again", 1.5],
        ["thanks", -4],
      ]),
    };
    expect(complaintLogOddsWith(model, ["late", "again", "unheard"])).toBeCloseTo(1, 5);
    expect(complaintLogOddsWith(model, ["thanks"])).toBeCloseTo(-7, 5);
  });

  it("reads a grievance without complaint words as a complaint, and news as information", () => {
    // The rules alone do not see it: that is the mail the model is for.
    expect(complains(`${GRIEVANCE.subject}\n${GRIEVANCE.text}`)).toBe(false);
    expect(complaintLogOdds(GRIEVANCE.subject, GRIEVANCE.text)).toBeGreaterThanOrEqual(COMPLAINT_MARGIN);
    expect(complaintLogOdds(NEWS.subject, NEWS.text)).toBeLessThan(0);
    expect(actionsFor(GRIEVANCE)).toContain("Reply to Dee to acknowledge the complaint");
    expect(actionsFor(NEWS)).toEqual(["Archive this email"]);
  });
});
