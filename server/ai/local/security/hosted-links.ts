import type { SecurityReason } from "../../../../contract/ai.ts";
import { BRANDS, isBrandDomain } from "./brands.ts";
import { hostOfUrl, registrableDomain } from "./domains.ts";
import { type SenderTrust, trustedSender } from "./sender-trust.ts";

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
// Access a malicious app wants: mail, files, contacts, everything, for ever (offline_access).
const BROAD_SCOPE =
  /mail\.|files\.|contacts\.|calendars\.readwrite|offline_access|\.default|sites\.|user\.readwrite|directory\.|mail\.google\.com|gmail\.|\/auth\/drive|\/auth\/contacts|prompt=consent|resource=/i;

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
  [
    /(^|\.)(typeform|jotform|surveymonkey|formstack|123formbuilder|zohopublic)\.com$|(^|\.)cognitoforms\.com$/,
    "a form service",
  ],
  [
    /(^|\.)notion\.site$|(^|\.)canva\.site$|(^|\.)wixsite\.com$|(^|\.)weebly\.com$|(^|\.)godaddysites\.com$/,
    "a free site builder",
  ],
  [
    /(^|\.)(web\.app|firebaseapp\.com|glitch\.me|netlify\.app|vercel\.app|pages\.dev|workers\.dev|github\.io|blogspot\.com|r2\.dev|herokuapp\.com)$/,
    "a free hosting service",
  ],
  [
    /^(storage|firebasestorage)\.googleapis\.com$|(^|\.)s3[.-][a-z0-9-]*\.?amazonaws\.com$|(^|\.)blob\.core\.windows\.net$/,
    "a cloud storage bucket",
  ],
];

function hostingService(url: string): string | null {
  const host = hostOfUrl(url);
  if (!host) return null;
  const path = url.replace(/^\s*https?:\/\//i, "").toLowerCase();
  for (const [pattern, name] of HOSTING) if (pattern.test(host) || pattern.test(path)) return name;
  return null;
}

// What the hosted page is for: a sign-in, or money.
const CREDENTIAL_ASK =
  /\b(?:sign|log)[\s-]?in\s+(?:with|using)\b|\b(?:verify|validate|confirm|re-?enter)\s+(?:your\s+)?(?:account|mailbox|email|password|credentials|identity|details)\b|\b(?:email|microsoft|office|outlook)\s+(?:password|credentials)\b|\bpassword\s+expires?\b|\bkeep\s+(?:your\s+)?(?:current\s+)?password\b|\b(?:storage|quota)\b[^.]{0,40}\b(?:full|limit|exceeded)\b|\bmailbox\b[^.]{0,40}\b(?:full|deactivat|suspend|storage)/i;
const MONEY_PRETEXT =
  /\b(?:invoice|remittance|payment|overdue|wire|purchase\s+order|po[\s_-]?\d|statement|payslip|bonus)\b/i;
const SHARE_PRETEXT =
  /\bshared?\b[^.]{0,40}\b(?:document|file|folder|proposal)\b|\b(?:secure|protected|encrypted)\s+(?:document|file|message)\b|\bview\s+(?:the\s+)?(?:document|file|invoice)\b|\bget\s+your\s+files\b/i;

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
      message: `A link opens a real sign-in consent page that would give the app at ${app.redirect}${app.broad ? " access to your mail or files" : " access to your account"}. Approving it needs no password and survives a password change; only approve apps you added yourself.`,
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
