import { describe, expect, it } from "vitest";
import { advanceFeeCues, checkAdvanceFee } from "./advance-fee.ts";
import { scanEmail } from "./scan.ts";

const codes = (reasons: ReadonlyArray<{ code: string }>) => reasons.map((r) => r.code);

// Written for these tests in the style of the genre; not copied from any benchmark message.
const LETTER = `Dear Sir,

I am Mr. Peter Obi, a senior accountant with the Federal Ministry of Finance. Though I do not know
you, I got your contact from the chamber of commerce and I seek your assistance in a strictly
confidential transaction.

My late client, a foreign contractor, died in a plane crash leaving US$18,500,000.00 (Eighteen
Million Five Hundred Thousand United States Dollars) in a dormant account. We want to transfer this
money into your account as his next of kin. You will receive 25% of the total sum for your
assistance. Please send your private telephone and fax numbers and keep this matter top secret.`;

function letter(overrides: Partial<{ text: string; from: string; replyTo: string[]; subject: string }> = {}) {
  return {
    subject: overrides.subject ?? "URGENT BUSINESS PROPOSAL",
    text: overrides.text ?? LETTER,
    fromAddress: overrides.from ?? "peter.obi@mail.com",
    replyTo: (overrides.replyTo ?? []).map((address) => ({ address })),
  };
}

describe("advance-fee fraud", () => {
  it("recognises the 419 pattern and says why in plain English", () => {
    const cues = advanceFeeCues(letter());
    expect([...cues]).toEqual(
      expect.arrayContaining(["sum", "transfer", "share", "inheritance", "secrecy", "stranger", "contact"]),
    );
    const [reason] = checkAdvanceFee(letter());
    expect(reason?.code).toBe("advance_fee_fraud");
    expect(reason?.severity).toBe("danger");
    expect(reason?.message).toMatch(
      /^The message reads like an advance-fee \("419"\) scam: it names a sum of millions, /,
    );
    expect(reason?.message).toMatch(/\.$/);
  });

  it("counts replies sent to another free-mail mailbox and an official title on free mail", () => {
    const cues = advanceFeeCues(letter({ replyTo: ["p.obi2002@yahoo.com"] }));
    expect(cues.has("replyElsewhere")).toBe(true);
    expect(cues.has("officialOnFreeMail")).toBe(true);
    // A list that sets Reply-To to itself is not "elsewhere": lists are not free-mail mailboxes.
    expect(advanceFeeCues(letter({ replyTo: ["ilug@linux.ie"] })).has("replyElsewhere")).toBe(false);
  });

  it("needs money and a role for the reader, not just the vocabulary", () => {
    // Secrecy, a stranger and a fax request without a sum to move stay below the bar.
    const noMoney =
      "Dear Sir, though I do not know you, I seek your assistance. Keep this top secret and reply by fax.";
    expect(checkAdvanceFee(letter({ text: noMoney }))).toEqual([]);
  });

  it("leaves a genuine bank notice about a large transfer alone", () => {
    const notice = `Dear Customer,

Your international transfer of US$2,500,000.00 to the account ending 4411 was completed on
3 March. The funds should arrive within two business days. If you did not make this transfer,
call us on the number on the back of your card. Never share your PIN with anyone.`;
    expect(
      checkAdvanceFee(letter({ text: notice, from: "alerts@bank.example", subject: "Transfer completed" })),
    ).toEqual([]);
    const scan = scanEmail({
      from: { name: "Example Bank", address: "alerts@bank.example" },
      subject: "Transfer completed",
      text: notice,
      html: null,
    });
    expect(scan.verdict).toBe("safe");
  });

  it("leaves a real estate listing that mentions millions and a commission alone", () => {
    const listing = `Hi Sam,

Just listed: a $4.2 million waterfront estate with six bedrooms and a private dock. The sellers
are motivated and pay a 3% commission to buyer's agents. Private showings start Saturday; the
full brochure is at https://realty.example/listings/4417. Call me with any questions.

Dana Whitfield, Whitfield Realty`;
    expect(
      checkAdvanceFee(letter({ text: listing, from: "dana@realty.example", subject: "New listing" })),
    ).toEqual([]);
  });

  it("ignores quoted lines, so a list post discussing a scam letter is not the scam", () => {
    const quoted = `Look what the spammers sent me today:\n\n${LETTER.split("\n")
      .map((l) => `> ${l}`)
      .join("\n")}\n\nWho still falls for these?`;
    expect(checkAdvanceFee(letter({ text: quoted, from: "someone@isp.example" }))).toEqual([]);
  });

  it("calls the whole letter dangerous in the scan", () => {
    const scan = scanEmail({
      from: { name: "Peter Obi", address: "peter.obi@mail.com" },
      replyTo: [{ name: "", address: "p.obi2002@yahoo.com" }],
      subject: "URGENT BUSINESS PROPOSAL",
      text: LETTER,
      html: null,
    });
    expect(scan.verdict).toBe("dangerous");
    expect(codes(scan.reasons)).toContain("advance_fee_fraud");
  });
});

describe("lottery fraud", () => {
  const win = `INTERNATIONAL LOTTERY PROGRAMME - WINNING NOTIFICATION

We are pleased to inform you that your e-mail address has won the sum of EUR 1,500,000.00 in our
online draw. To file for your claim, contact our claims agent Mr. Van Dijk with your batch number.
Keep your winning information confidential until your claim has been processed.`;

  it("recognises a win that must be claimed through an agent", () => {
    expect(codes(checkAdvanceFee(letter({ text: win, subject: "Winning notification" })))).toContain(
      "lottery_fraud",
    );
  });

  it("leaves lottery results and prize promotions alone", () => {
    const results =
      "Powerball results for Saturday: winning numbers 03 06 26 39 48, Powerball 28. Next jackpot: $100 million. Good luck!";
    expect(codes(checkAdvanceFee(letter({ text: results, subject: "Powerball results" })))).not.toContain(
      "lottery_fraud",
    );
    const promotion =
      "Congratulations! You may be one of our lucky winners of a 5-night Orlando vacation. Click here to register.";
    expect(checkAdvanceFee(letter({ text: promotion, subject: "You're a winner" }))).toEqual([]);
  });
});
