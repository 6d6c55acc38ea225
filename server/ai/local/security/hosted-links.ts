import type { SecurityReason } from "../../../../contract/ai.ts";
import { ruleTable } from "../rules/rule-table.ts";
import { BRANDS, isBrandDomain } from "./brands.ts";
import { hostOfUrl, registrableDomain } from "./domains.ts";
import { type SenderTrust, trustedSender } from "./sender-trust.ts";

const rules = ruleTable("security");

/**
 * Links to REAL services used against the reader, which a look-alike check cannot see because the
 * domains are genuine:
 *   OAuth consent phishing  a link straight to Microsoft's or Google's consent page for an app the
 *                           reader does not know; approving it hands the app the mailbox, no
 *                           password needed
 *   abused hosting          a form, shared file or free site on a real service (Google Forms,
 *                           SharePoint, Dropbox, Sites, ...) that carries the fake sign-in page or
 *                           the "invoice", sent by someone who is not that service
 */

const CONSENT_HOSTS = new Set([
  "login.microsoftonline.com",
  "login.microsoft.com",
  "login.live.com",
  "login.windows.net",
  "accounts.google.com",
]);
const BROAD_SCOPE = rules.regex("broad-scope");

/** A consent-page URL for an app whose redirect leaves the identity provider, or null. */
function consentApp(url: string): { redirect: string; broad: boolean } | null {
  const host = hostOfUrl(url);
  if (!host || !CONSENT_HOSTS.has(host)) return null;
  if (!/oauth2?|authorize|\/o\/oauth/i.test(url) || !/client_id=/i.test(url)) return null;
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // A malformed escape leaves the raw URL, which still names the redirect.
  }
  const redirect = /redirect_uri=([^&\s]+)/i.exec(decoded)?.[1] ?? "";
  const redirectHost = hostOfUrl(redirect) ?? "";
  const provider = BRANDS.find((b) => isBrandDomain(b, registrableDomain(host)));
  if (redirectHost && provider && isBrandDomain(provider, registrableDomain(redirectHost))) return null;
  return { redirect: redirectHost || "an unnamed app", broad: BROAD_SCOPE.test(decoded) };
}

/** Real file-sharing, form and free-site services, by the host of the link. */
const HOSTING: ReadonlyArray<readonly [RegExp, string]> = [
  [/^docs\.google\.com\/forms|^forms\.gle$/, "Google Forms"],
  [/^forms\.office\.com|^forms\.microsoft\.com/, "Microsoft Forms"],
  [/^sites\.google\.com/, "Google Sites"],
  [/^(docs|drive)\.google\.com/, "Google Drive"],
  [/(^|\.)sharepoint\.com$|^1drv\.ms$|^onedrive\.live\.com$/, "OneDrive/SharePoint"],
  [/(^|\.)dropbox(usercontent)?\.com$|^db\.tt$/, "Dropbox"],
  [/(^|\.)wetransfer\.com$|^we\.tl$/, "WeTransfer"],
  [/(^|\.)box\.com$/, "Box"],
  [rules.regex("form-service-host"), "a form service"],
  [rules.regex("site-builder-host"), "a free site builder"],
  [rules.regex("free-hosting-host"), "a free hosting service"],
  [rules.regex("cloud-storage-host"), "a cloud storage bucket"],
];

function hostingService(url: string): string | null {
  const host = hostOfUrl(url);
  if (!host) return null;
  const path = url.replace(/^\s*https?:\/\//i, "").toLowerCase();
  for (const [pattern, name] of HOSTING) if (pattern.test(host) || pattern.test(path)) return name;
  return null;
}

const CREDENTIAL_ASK = rules.regex("credential-ask");
const MONEY_PRETEXT = rules.regex("money-pretext");
const SHARE_PRETEXT = rules.regex("share-pretext");

export function checkHostedLinks(
  urls: readonly string[],
  fromSite: string,
  subject: string,
  text: string,
  trust: SenderTrust,
  authKnown: boolean,
): SecurityReason[] {
  const reasons: SecurityReason[] = [];
  const sample = `${subject}\n${text.slice(0, 6000)}`;
  const trusted = trustedSender(trust, authKnown);
  const fromBrand = BRANDS.find((b) => isBrandDomain(b, fromSite));

  for (const url of urls.slice(0, 100)) {
    const app = consentApp(url);
    if (!app) continue;
    reasons.push({
      code: "oauth_consent_link",
      severity: app.broad && !trusted ? "danger" : "warning",
      message:
        `A link opens a real sign-in consent page that would give the app at ${app.redirect}` +
        `${app.broad ? " access to your mail or files" : " access to your account"}. Approving it needs no ` +
        "password and survives a password change; only approve apps you added yourself.",
    });
    break;
  }

  if (!trusted) {
    for (const url of urls.slice(0, 100)) {
      const service = hostingService(url);
      if (!service) continue;
      const site = registrableDomain(hostOfUrl(url) ?? "");
      // The service's own notices ("Priya shared a file with you" from google.com) are its job.
      if (site === fromSite || (fromBrand && isBrandDomain(fromBrand, site))) continue;
      const credentials = CREDENTIAL_ASK.test(sample);
      const money = MONEY_PRETEXT.test(sample);
      const shared = SHARE_PRETEXT.test(sample);
      if (!credentials && !money && !shared) continue;
      const page = /\.html?(?:[?#]|$)/i.test(url);
      reasons.push({
        code: "hosted_lure",
        severity: credentials || page ? "danger" : "warning",
        message: credentials
          ? `A link goes to ${service}, a real service anyone can use, and the message asks you to sign in or confirm your account there. Real sign-ins never happen on a form or a shared file.`
          : `A link goes to a file or page on ${service} from a sender you do not correspond with, with ${money ? "a payment" : "a shared-document"} pretext: open it only if you expected it.`,
      });
      break;
    }
  }
  return reasons;
}
