import type { SecurityReason, SecurityScan, SecurityVerdict } from "../../../../contract/ai.ts";
import { checkAdvanceFee, isFreeMailDomain } from "./advance-fee.ts";
import { type AttachmentInfo, checkAttachments } from "./attachments.ts";
import { parseAuthenticationResults } from "./authentication-results.ts";
import { BRANDS, isBrandDomain } from "./brands.ts";
import { checkCredentialRequests } from "./credential-requests.ts";
import { checkDisplayName } from "./display-name.ts";
import { domainOfAddress, hostOfUrl, registrableDomain } from "./domains.ts";
import { checkHostedLinks } from "./hosted-links.ts";
import { checkLinks, checkProgramLinks, extractAnchors, urlsIn } from "./links.ts";
import { checkLookalike } from "./lookalike.ts";
import { checkLures } from "./lures.ts";
import { addressInDisplayName, relayService } from "./relays.ts";
import { checkRiskyRequests } from "./requests.ts";
import { borrowedColleagueName, type SenderTrust } from "./sender-trust.ts";

/**
 * The security scan of one email, pure and cheap enough to run on every message. Each finding is
 * a reason with a severity; the verdict follows from the summed score:
 *   danger reason = 3 points, warning = 1.5, info = 0
 *   dangerous  when score >= 4.5, or any danger reason
 *   suspicious when score >= 1.5
 *   safe       otherwise
 */

export interface ScanInput {
  from: { name: string; address: string };
  replyTo?: ReadonlyArray<{ name: string; address: string }>;
  subject: string;
  /** Plain text of the body (HTML already converted); quoted parts may stay in. */
  text: string;
  html: string | null;
  attachments?: readonly AttachmentInfo[];
  authenticationResults?: string | null;
}

export interface ScanContext {
  /** Domains of the user's contacts: mail from a near-copy of one of them is a lookalike. */
  contactDomains?: readonly string[];
  /** The user's own organisation's domains (not free-mail ones). */
  ownDomains?: readonly string[];
  /** People at the user's organisation: a stranger's address showing one of their names is an impersonation. */
  colleagues?: ReadonlyArray<{ name: string; address: string }>;
  /** The user has written to this very address before. */
  knownSender?: boolean;
}

const POINTS = { danger: 3, warning: 1.5, info: 0 } as const;

export function scoreReasons(reasons: readonly SecurityReason[]): {
  score: number;
  verdict: SecurityVerdict;
} {
  const score = reasons.reduce((sum, r) => sum + POINTS[r.severity], 0);
  const anyDanger = reasons.some((r) => r.severity === "danger");
  const verdict: SecurityVerdict =
    anyDanger || score >= 4.5 ? "dangerous" : score >= 1.5 ? "suspicious" : "safe";
  return { score, verdict };
}

export function scanEmail(input: ScanInput, context: ScanContext = {}): SecurityScan {
  const reasons: SecurityReason[] = [];
  const contactDomains = context.contactDomains ?? [];
  const ownDomains = (context.ownDomains ?? []).map((d) => registrableDomain(d.toLowerCase()));
  const fromHost = domainOfAddress(input.from.address);
  const fromSite = registrableDomain(fromHost);
  const fromBrand = BRANDS.find((b) => isBrandDomain(b, fromSite));

  const auth = parseAuthenticationResults(input.authenticationResults);
  if (auth.dmarc === "fail") {
    const strict =
      fromBrand !== undefined || auth.dmarcPolicy === "reject" || auth.dmarcPolicy === "quarantine";
    reasons.push({
      code: "dmarc_fail",
      severity: strict ? "danger" : "warning",
      message: `The sender's domain ${fromSite || "(unknown)"} did not authenticate this message (DMARC failed).`,
    });
  }
  if (auth.spf === "fail") {
    reasons.push({
      code: "spf_fail",
      severity: "warning",
      message: "The sending server is not allowed to send for this domain (SPF failed).",
    });
  } else if (auth.spf === "softfail") {
    reasons.push({
      code: "spf_softfail",
      severity: "info",
      message: "SPF soft-failed for the sending server.",
    });
  }
  if (auth.dkim === "fail") {
    reasons.push({
      code: "dkim_fail",
      severity: "warning",
      message: "The message's signature does not verify (DKIM failed): it may have been altered.",
    });
  }

  reasons.push(...checkDisplayName(input.from.name, input.from.address));
  // Relayed mail (sneakemail, Firefox Relay...) really comes from the address in the sender name.
  const original = relayService(fromHost) ? addressInDisplayName(input.from.name, true) : null;
  const senderSites = original ? [fromSite, registrableDomain(domainOfAddress(original))] : [fromSite];

  // Lookalikes: the sender, reply-to and every linked host, each host once.
  const checked = new Set<string>();
  const lookalike = (host: string, role: string) => {
    if (!host || checked.has(host)) return;
    checked.add(host);
    const finding = checkLookalike(host, contactDomains, ownDomains);
    if (finding) reasons.push({ ...finding.reason, message: `${role}: ${finding.reason.message}` });
  };
  lookalike(fromHost, "Sender");
  const alreadySuspect = reasons.some((r) => r.severity !== "info");
  for (const reply of input.replyTo ?? []) {
    const replyHost = domainOfAddress(reply.address);
    lookalike(replyHost, "Reply-To");
    const replySite = registrableDomain(replyHost);
    // One provider's own services are not a mismatch: a Hotmail member posting to an MSN group
    // gets replies sent to groups.msn.com, both Microsoft's.
    const sameBrand = fromBrand !== undefined && isBrandDomain(fromBrand, replySite);
    if (replyHost && replySite !== fromSite && !sameBrand && (fromBrand || alreadySuspect)) {
      reasons.push({
        code: "reply_to_mismatch",
        severity: "warning",
        message: `Replies would go to ${reply.address}, not to the sender's domain ${fromSite}.`,
      });
    }
  }

  const anchors = input.html ? extractAnchors(input.html.slice(0, 100_000)) : [];
  const links = checkLinks(anchors, senderSites);
  reasons.push(...links.reasons);
  const textUrls = urlsIn(input.text.slice(0, 20_000));
  const textHosts: string[] = [];
  for (const url of textUrls) {
    const host = hostOfUrl(url);
    if (host) textHosts.push(host);
  }
  const linkHosts = [...new Set([...links.hrefHosts, ...textHosts])];
  for (const host of linkHosts.slice(0, 50)) lookalike(host, "Link");
  // The opening of the message: where a push to run a download or a request for credentials is.
  const opening = `${input.subject}\n${input.text.slice(0, 8000)}`;
  reasons.push(...checkProgramLinks([...anchors.map((a) => a.href), ...textUrls], senderSites, opening));

  reasons.push(...checkAttachments(input.attachments ?? []));
  reasons.push(
    ...checkAdvanceFee({
      subject: input.subject,
      text: input.text,
      fromAddress: input.from.address,
      replyTo: input.replyTo ?? [],
    }),
  );

  // Who is asking: the checks for requests and lures below depend on it.
  const authKnown = auth.dmarc !== "none" || auth.dkim !== "none" || auth.spf !== "none";
  const authenticated = auth.dmarc === "pass" || (auth.dkim === "pass" && auth.spf === "pass");
  const borrowed = borrowedColleagueName(input.from.name, input.from.address, context.colleagues ?? []);
  const trust: SenderTrust = {
    authenticated,
    freeMail: isFreeMailDomain(fromSite),
    ownDomain: ownDomains.includes(fromSite),
    contact:
      context.knownSender === true ||
      (!isFreeMailDomain(fromSite) &&
        contactDomains.some((d) => registrableDomain(d.toLowerCase()) === fromSite)),
    borrowsColleagueName: borrowed,
  };
  if (borrowed && !trust.ownDomain) {
    reasons.push({
      code: "colleague_name_spoof",
      severity: "warning",
      message: `The sender shows the name of your colleague ${borrowed} but writes from ${input.from.address}, not from their work address.`,
    });
  }
  const allUrls = [...anchors.map((a) => a.href), ...textUrls];
  reasons.push(...checkRiskyRequests(input.subject, input.text, trust, authKnown));
  reasons.push(
    ...checkLures(
      input.subject,
      input.text,
      input.html,
      (input.attachments ?? []).map((a) => a.filename),
      trust,
      authKnown,
    ),
  );
  reasons.push(...checkHostedLinks(allUrls, fromSite, input.subject, input.text, trust, authKnown));

  const credentials = checkCredentialRequests(opening);
  if (credentials.count > 0) {
    // An authenticated sender whose links all stay on its own site (a real security alert)
    // gets the benefit of the doubt; anyone else asking for credentials does not.
    const ownLinksOnly = linkHosts.every((h) => registrableDomain(h) === fromSite);
    for (const reason of credentials.reasons) {
      reasons.push(authenticated && ownLinksOnly ? { ...reason, severity: "info" } : reason);
    }
  }

  const { score, verdict } = scoreReasons(reasons);
  return {
    verdict,
    score,
    reasons,
    authentication: { spf: auth.spf, dkim: auth.dkim, dmarc: auth.dmarc },
  };
}
