import { describe, expect, it } from "vitest";
import { type ScanContext, type ScanInput, scanEmail } from "./scan.ts";

/**
 * The phishing classes of issue 18, each with a look-alike legitimate mail that must stay safe.
 * The full held-out figures are in bench/ai/trust.ts; these pin one case of each class.
 */

const CONTEXT: ScanContext = {
  ownDomains: ["harbor-goods.com"],
  contactDomains: ["tidewater.io"],
  colleagues: [{ name: "Nora Lindgren", address: "nora.lindgren@harbor-goods.com" }],
};
const PASS =
  "mx.example; dkim=pass header.i=@harbor-goods.com; spf=pass; dmarc=pass header.from=harbor-goods.com";

function scan(input: Partial<ScanInput> & { text: string }) {
  return scanEmail(
    { from: { name: "", address: "someone@unknown-sender.net" }, subject: "", html: null, ...input },
    CONTEXT,
  );
}
const codes = (r: ReturnType<typeof scan>) => r.reasons.map((x) => x.code);

describe("modern phishing classes", () => {
  it("flags a gift-card request in a colleague's name from free mail, not a colleague's thank-you", () => {
    const scam = scan({
      from: { name: "Nora Lindgren", address: "nora.lindgren.mail@gmail.com" },
      subject: "Quick favour",
      text: "I need you to buy four Steam gift cards for a client today. Scratch the back and send me photos of the codes.",
    });
    expect(scam.verdict).toBe("dangerous");
    expect(codes(scam)).toEqual(expect.arrayContaining(["gift_card_request", "colleague_name_spoof"]));
    const thanks = scan({
      from: { name: "Nora Lindgren", address: "nora.lindgren@harbor-goods.com" },
      authenticationResults: PASS,
      text: "Everyone gets a gift card from the vendor next week as a thank-you. Nobody will ever ask you to buy gift cards.",
    });
    expect(thanks.verdict).toBe("safe");
  });

  it("flags a payroll change from free mail, not HR telling staff to update their own details", () => {
    const scam = scan({
      from: { name: "Nora Lindgren", address: "nlindgren@yahoo.com" },
      text: "I changed banks. Please update my direct deposit before the next payroll, new account number to follow.",
    });
    expect(codes(scam)).toContain("payment_change_request");
    expect(scam.verdict).toBe("dangerous");
    const hr = scan({
      from: { name: "HR", address: "hr@harbor-goods.com" },
      authenticationResults: PASS,
      text: "Payroll closes Thursday. If you changed banks, update your direct deposit in the HR portal yourself.",
    });
    expect(hr.verdict).toBe("safe");
  });

  it("flags requests to approve sign-in prompts or pass on a code, not a service's own code mail", () => {
    expect(
      scan({
        text: "You will get several sign-in requests on your Authenticator today; please approve them.",
      }).verdict,
    ).toBe("dangerous");
    expect(scan({ text: "Reply to this message with the verification code we texted you." }).verdict).toBe(
      "dangerous",
    );
    expect(
      scan({
        from: { name: "Google", address: "no-reply@accounts.google.com" },
        text: "Your verification code is 551203. Don't share this code with anyone.",
      }).verdict,
    ).toBe("safe");
  });

  it("flags a QR-code lure with an account pretext, not an event ticket", () => {
    const lure = scan({
      subject: "Re-register your MFA",
      // The analyzer passes the text of the HTML body; the scan reads both.
      text: "Scan the QR code below to re-register your authenticator and keep access.",
      html: '<p>Scan the QR code below to re-register your authenticator and keep access.</p><img src="cid:q">',
    });
    expect(codes(lure)).toContain("qr_code_lure");
    expect(lure.verdict).toBe("dangerous");
    const ticket = scan({
      from: { name: "Tickets", address: "tickets@concert-hall.org" },
      text: "Show the QR code at the door. Doors open at 7pm.",
      html: '<img src="https://concert-hall.org/t/1.png">',
    });
    expect(ticket.verdict).toBe("safe");
  });

  it("flags an OAuth consent link for an unknown app with mail scopes", () => {
    const result = scan({
      text: "Open the shared file: https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=1&redirect_uri=https%3A%2F%2Ffile-viewer.example%2Fcb&scope=Mail.Read%20offline_access",
    });
    expect(codes(result)).toContain("oauth_consent_link");
    expect(result.verdict).toBe("dangerous");
  });

  it("flags a form service asking for a password, not a colleague's survey", () => {
    const lure = scan({
      text: "Your mailbox storage is full. Verify your account on this form: https://docs.google.com/forms/d/e/abc/viewform",
    });
    expect(codes(lure)).toContain("hosted_lure");
    expect(lure.verdict).toBe("dangerous");
    const survey = scan({
      from: { name: "Nora Lindgren", address: "nora.lindgren@harbor-goods.com" },
      authenticationResults: PASS,
      text: "Please fill in the offsite survey by Friday: https://forms.office.com/r/abc",
    });
    expect(survey.verdict).toBe("safe");
  });

  it("flags the user's own domain inside another domain, not the user's own subdomains", () => {
    const lure = scan({ text: "Sign in: https://sso.harbor-goods.com.account-check.net/login" });
    expect(codes(lure)).toContain("own_domain_inside");
    expect(lure.verdict).toBe("dangerous");
    expect(scan({ text: "Sign in: https://sso.harbor-goods.com/login" }).verdict).toBe("safe");
    // A company's tenant on a service carries its name without the suffix.
    expect(scan({ text: "Your ticket: https://harbor-goods.zendesk.com/t/1" }).verdict).toBe("safe");
  });

  it("flags wallet and collaboration look-alikes, not the brands' own domains", () => {
    expect(
      scan({ from: { name: "MetaMask", address: "help@metamask-wallet-support.com" }, text: "" }).verdict,
    ).not.toBe("safe");
    expect(
      scan({ from: { name: "Zoom", address: "no-reply@zoom-meeting-join.com" }, text: "" }).verdict,
    ).not.toBe("safe");
    expect(scan({ from: { name: "MetaMask", address: "hello@metamask.io" }, text: "" }).verdict).toBe("safe");
  });

  it("flags a callback scam, not a supplier's invoice with a phone number", () => {
    const scam = scan({
      text: "Your antivirus renewal of $389.99 was charged today. If you did not authorize it, call +1 (877) 555-0142 to cancel.",
    });
    expect(codes(scam)).toContain("callback_scam");
    expect(scam.verdict).toBe("dangerous");
    const invoice = scan({
      from: { name: "Tidewater Billing", address: "billing@tidewater.io" },
      text: "Invoice 118 for $2,400.00 is attached, due in 30 days. Questions? Call +1 206 555 0100.",
    });
    expect(invoice.verdict).toBe("safe");
  });
});
