import { describe, expect, it } from "vitest";
import { checkAttachments } from "./attachments.ts";
import { parseAuthenticationResults } from "./authentication-results.ts";
import { checkCredentialRequests } from "./credential-requests.ts";
import { checkDisplayName } from "./display-name.ts";
import { checkLinks, checkProgramLinks, extractAnchors, programInUrl } from "./links.ts";
import { checkLookalike, skeleton } from "./lookalike.ts";
import { relayService } from "./relays.ts";
import { scanEmail } from "./scan.ts";

const codes = (reasons: ReadonlyArray<{ code: string }>) => reasons.map((r) => r.code);

describe("parseAuthenticationResults", () => {
  it("reads spf, dkim, dmarc, the policy and header.from, ignoring comments", () => {
    const v = parseAuthenticationResults(
      "mx.google.com; dkim=pass header.i=@a.com; spf=softfail (google.com: domain of x; y=z) smtp.mailfrom=a.com; dmarc=fail (p=REJECT sp=NONE) header.from=a.com",
    );
    expect(v).toEqual({
      spf: "softfail",
      dkim: "pass",
      dmarc: "fail",
      dmarcPolicy: "reject",
      headerFrom: "a.com",
    });
  });
  it("defaults to none without a header", () => {
    expect(parseAuthenticationResults(null)).toMatchObject({ spf: "none", dkim: "none", dmarc: "none" });
  });
});

describe("lookalike domains", () => {
  it("folds confusables into one skeleton", () => {
    expect(skeleton("paypa1")).toBe(skeleton("paypal"));
    expect(skeleton("rnicrosoft")).toBe(skeleton("microsoft"));
    expect(skeleton("pаypal")).toBe(skeleton("paypal")); // Cyrillic а
  });
  it("flags brand lookalikes, combo-squatting and punycode, not the brand itself", () => {
    expect(checkLookalike("paypa1.com")?.reason.code).toBe("lookalike_domain");
    expect(checkLookalike("secure-paypal-login.com")?.reason.code).toBe("brand_in_domain");
    expect(checkLookalike("accounts.google.com.evil.example")?.reason.severity).toBe("danger");
    expect(checkLookalike("xn--pypal-4ve.com")?.reason.severity).toBe("danger");
    expect(checkLookalike("www.paypal.com")).toBeNull();
    expect(checkLookalike("amazon.co.uk")).toBeNull();
    expect(checkLookalike("pineapple.com")).toBeNull();
    expect(checkLookalike("slack.net")).toBeNull();
  });
  it("flags near-copies of the user's contacts' domains", () => {
    expect(checkLookalike("acrne.com", ["acme.com"])?.reason.code).toBe("lookalike_contact_domain");
    expect(checkLookalike("acme.com", ["acme.com"])).toBeNull();
  });
});

describe("display names, links, attachments, credential requests", () => {
  it("catches a display name that shows another address or brand", () => {
    expect(codes(checkDisplayName("ceo@acme.com", "ceo.acme@gmail.com"))).toContain(
      "display_name_address_mismatch",
    );
    expect(codes(checkDisplayName("PayPal Support", "help@mailer.example"))).toContain(
      "display_name_brand_mismatch",
    );
    expect(checkDisplayName("Chase Miller", "chase@gmail.com")).toEqual([]);
    expect(checkDisplayName("PayPal", "service@paypal.com")).toEqual([]);
  });
  it("parses anchors and flags text naming another site than the href", () => {
    const anchors = extractAnchors(
      '<p><a class="x" href="http://evil.example/login">https://www.paypal.com/</a></p>',
    );
    expect(anchors).toEqual([{ href: "http://evil.example/login", text: "https://www.paypal.com/" }]);
    expect(codes(checkLinks(anchors).reasons)).toEqual(["link_text_mismatch_brand"]);
    expect(checkLinks(extractAnchors('<a href="https://example.com/a">example.com</a>')).reasons).toEqual([]);
    expect(codes(checkLinks([{ href: "http://paypal.com@203.0.113.9/", text: "Log in" }]).reasons)).toContain(
      "link_userinfo",
    );
  });
  it("flags risky attachment types", () => {
    expect(codes(checkAttachments([{ filename: "invoice.pdf.exe" }]))).toEqual([
      "attachment_double_extension",
    ]);
    expect(codes(checkAttachments([{ filename: "setup.msi" }, { filename: "report.xlsm" }]))).toEqual([
      "attachment_executable",
      "attachment_macro",
    ]);
    expect(codes(checkAttachments([{ filename: "invoice\u202efdp.exe" }]))).toEqual(["attachment_rtlo"]);
    expect(checkAttachments([{ filename: "report.pdf" }, { filename: "photo.jpg" }])).toEqual([]);
  });
  it("recognises credential-request language", () => {
    expect(
      checkCredentialRequests("Please verify your account or your account will be suspended.").count,
    ).toBe(2);
    expect(checkCredentialRequests("See you at lunch tomorrow.").count).toBe(0);
  });
  it("reads a short deadline as pressure only next to a request for credentials", () => {
    expect(
      checkCredentialRequests("Add the TXT record to your DNS within 48 hours, or outbound mail will pause.")
        .count,
    ).toBe(0);
    expect(
      checkCredentialRequests("Confirm your password within 24 hours to keep your mailbox.").reasons[0]
        ?.severity,
    ).toBe("danger");
  });
});

describe("scanEmail", () => {
  it("calls a classic PayPal phish dangerous, with the reasons", () => {
    const scan = scanEmail({
      from: { name: "PayPal", address: "service@paypa1.com" },
      subject: "Your account has been limited",
      text: "We noticed unusual activity. Verify your account within 24 hours.",
      html: '<a href="http://paypa1.com/restore">https://www.paypal.com/</a>',
      authenticationResults:
        "mx; spf=fail smtp.mailfrom=paypa1.com; dkim=none; dmarc=fail (p=REJECT) header.from=paypa1.com",
    });
    expect(scan.verdict).toBe("dangerous");
    expect(codes(scan.reasons)).toEqual(
      expect.arrayContaining([
        "dmarc_fail",
        "spf_fail",
        "display_name_brand_mismatch",
        "lookalike_domain",
        "link_text_mismatch_brand",
        "credential_request",
      ]),
    );
    expect(scan.authentication).toEqual({ spf: "fail", dkim: "none", dmarc: "fail" });
  });
  it("calls an executable attachment dangerous", () => {
    const scan = scanEmail({
      from: { name: "Scanner", address: "scan@office.example" },
      subject: "Scan",
      text: "Attached.",
      html: null,
      attachments: [{ filename: "scan.js" }],
    });
    expect(scan.verdict).toBe("dangerous");
  });
  it("calls ordinary mail and a genuine, authenticated security alert safe", () => {
    expect(
      scanEmail({
        from: { name: "Alice", address: "alice@acme.com" },
        subject: "Lunch?",
        text: "Want to grab lunch tomorrow? See https://acme.com/menu",
        html: null,
      }).verdict,
    ).toBe("safe");
    const google = scanEmail({
      from: { name: "Google", address: "no-reply@accounts.google.com" },
      subject: "Security alert",
      text: "We noticed a new sign-in. If this wasn't you, check unusual activity on your account.",
      html: '<a href="https://myaccount.google.com/notifications">Check activity</a>',
      authenticationResults:
        "mx.google.com; dkim=pass header.i=@accounts.google.com; spf=pass; dmarc=pass header.from=accounts.google.com",
    });
    expect(google.verdict).toBe("safe");
  });
});

describe("links to programs", () => {
  it("finds the program a URL downloads, in the path or a query value", () => {
    expect(programInUrl("http://files.example/get/setup.exe")).toEqual({
      file: "setup.exe",
      ext: "exe",
      decoy: null,
    });
    expect(programInUrl("http://files.example/download.php?id=7&file=Player.SCR")?.ext).toBe("scr");
    expect(programInUrl("http://files.example/invoice.pdf.exe")?.decoy).toBe("pdf");
    expect(programInUrl("http://files.example/readme.html")).toBeNull();
    // Disk images are how Linux distributions ship; they are not flagged as programs.
    expect(programInUrl("http://mirror.example/redhat-8.0-i386-disc1.iso")).toBeNull();
  });

  it("grades a program link by where it comes from and what the text asks", () => {
    const lure = checkProgramLinks(
      ["http://downloads.free-host.example/videos.exe"],
      ["mailer.example"],
      "Download and run the video player now to watch for free!",
    );
    expect(lure).toEqual([
      expect.objectContaining({
        code: "program_link",
        severity: "danger",
        message:
          'A link downloads the program "videos.exe" from downloads.free-host.example, and the message urges you to run or install it.',
      }),
    ]);
    expect(
      checkProgramLinks(["http://203.0.113.7/a/show.exe"], ["mailer.example"], "Live shows")[0]?.severity,
    ).toBe("danger");
    expect(checkProgramLinks(["ftp://files.example/doc.pdf.exe"], ["mailer.example"], "")[0]?.severity).toBe(
      "danger",
    );
    // A newsletter pointing at someone else's installer, with no push to run it: worth a warning.
    expect(
      checkProgramLinks(["https://tools.example/cleaner.msi"], ["newsletter.example"], "Tool of the week")[0]
        ?.severity,
    ).toBe("warning");
  });

  it("shows a vendor's own installer as information only, so its release mail stays safe", () => {
    const scan = scanEmail({
      from: { name: "Example Software", address: "releases@vendor.example" },
      subject: "Version 5.0 is out",
      text: "Download and install version 5.0 from https://download.vendor.example/setup-5.0.exe today.",
      html: null,
    });
    expect(scan.verdict).toBe("safe");
    expect(scan.reasons).toEqual([expect.objectContaining({ code: "program_link", severity: "info" })]);
  });

  it("calls a malware lure in a scan dangerous", () => {
    const scan = scanEmail({
      from: { name: "SMS Team", address: "news@freemail.example" },
      subject: "New version",
      text: "Our program stopped working. Click here to download the new version.",
      html: '<a href="http://www.sms-tools.example/sms.exe">SMS 7.3</a>',
    });
    expect(scan.verdict).toBe("dangerous");
    expect(codes(scan.reasons)).toContain("program_link");
  });
});

describe("relays, list replies and the sender's own links", () => {
  it("treats a forwarding service's sender name as the original sender, not a spoof", () => {
    expect(checkDisplayName("AuthorTracker@harpercollins.com", "ticket_23aj49@sneakemail.com")).toEqual([
      {
        code: "relayed_sender",
        severity: "info",
        message:
          "This message was forwarded by sneakemail.com; the original sender is AuthorTracker@harpercollins.com.",
      },
    ]);
    expect(checkDisplayName("news at example.org", "dax_x1@duck.com")[0]?.message).toContain(
      "news@example.org",
    );
    // A brand in the name is still judged against the original sender behind the relay.
    expect(codes(checkDisplayName("PayPal Support phish@evil.example", "r1@mozmail.com"))).toContain(
      "display_name_brand_mismatch",
    );
    expect(relayService("sub.sneakemail.com")).toBe("sneakemail.com");
    expect(relayService("sneakemail.com.evil.example")).toBeNull();
  });

  it("keeps a relayed newsletter safe, links to the original sender's site included", () => {
    const scan = scanEmail({
      from: { name: "Newsletter newsletter@theserverside.example", address: "ticket_1@sneakemail.com" },
      replyTo: [{ name: "", address: "ticket_2@sneakemail.com" }],
      subject: "This week",
      text: "Articles and reviews.",
      html: '<a href="http://lists.theserverside.example/click?u=1">hostj2ee.example</a>',
    });
    expect(scan.verdict).toBe("safe");
  });

  it("does not call a reply-to on the same provider's group service a mismatch", () => {
    const scan = scanEmail({
      from: { name: "joyful", address: "abcusa88@hotmail.com" },
      replyTo: [{ name: "One Income Living", address: "OneIncomeLiving@groups.msn.com" }],
      subject: "Hi! I'm new here.",
      text: "We attempted to deliver this message to you with HTML formatting.",
      html: null,
    });
    expect(scan.verdict).toBe("safe");
    const paypal = scanEmail({
      from: { name: "PayPal", address: "service@paypal.com" },
      replyTo: [{ name: "", address: "paypal.help@gmail.com" }],
      subject: "Receipt",
      text: "Thanks for your payment.",
      html: null,
    });
    expect(codes(paypal.reasons)).toContain("reply_to_mismatch");
  });

  it("ignores click tracking on the sender's own site, never a brand shown in the text", () => {
    const own = checkLinks(
      [{ href: "http://ummail4.unitedmedia.example/c?x=1", text: "dilbert.example" }],
      ["unitedmedia.example"],
    );
    expect(own.reasons).toEqual([]);
    const phish = checkLinks(
      [{ href: "http://evil.example/login", text: "www.paypal.com" }],
      ["evil.example"],
    );
    expect(codes(phish.reasons)).toEqual(["link_text_mismatch_brand"]);
  });
});
