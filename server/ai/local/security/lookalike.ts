import type { SecurityReason } from "../../../../contract/ai.ts";
import { BRANDS, type Brand, isBrandDomain } from "./brands.ts";
import { nameLabel, registrableDomain, unicodeHost } from "./domains.ts";

/**
 * Lookalike domains: a domain that reads like a brand's or a contact's but is not theirs.
 * Compares "skeletons" (Unicode TR39-ish: confusable letters, digit/letter swaps, rn->m folded
 * to one form), one-edit typos, and brand names buried in longer labels (paypal-secure-login).
 */

// Cyrillic/Greek/Latin-extended letters that render like ASCII ones, plus digit swaps.
const CONFUSABLES: Readonly<Record<string, string>> = {
  а: "a",
  в: "b",
  е: "e",
  ё: "e",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  і: "i",
  ї: "i",
  ј: "j",
  ѕ: "s",
  ԁ: "d",
  ɡ: "g",
  ԛ: "q",
  ԝ: "w",
  һ: "h",
  ӏ: "l",
  α: "a",
  β: "b",
  ε: "e",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  ı: "i",
  ł: "l",
  ø: "o",
  "0": "o",
  "1": "l",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "9": "g",
  "|": "l",
};

/** A folded form in which confusable spellings collide: paypa1, pаypal (Cyrillic а), rnicrosoft. */
export function skeleton(label: string): string {
  let out = "";
  for (const ch of label.normalize("NFKD").toLowerCase()) {
    if (/\p{M}/u.test(ch)) continue; // combining accents: é -> e
    out += CONFUSABLES[ch] ?? ch;
  }
  return out.replace(/rn/g, "m").replace(/vv/g, "w").replace(/cl/g, "d").replace(/i/g, "l").replace(/-/g, "");
}

/** Levenshtein distance capped at max+1 (we only care about 0, 1, 2). */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_v, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      cur.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] ?? max + 1;
}

export interface LookalikeFinding {
  kind: "brand" | "contact" | "own" | "punycode";
  host: string;
  /** The brand name or contact domain it imitates; null for a bare punycode finding. */
  imitates: string | null;
  reason: SecurityReason;
}

// Words phishers glue to a brand name; in skeleton form (i -> l) so they compare with skeletons.
const SERVICE_WORDS = new Set(
  [
    "secure",
    "security",
    "login",
    "signin",
    "verify",
    "verification",
    "support",
    "account",
    "accounts",
    "update",
    "service",
    "services",
    "help",
    "billing",
    "alert",
    "alerts",
    "online",
    "team",
    "mail",
    "id",
    "pay",
    "auth",
    "confirm",
    "center",
    "helpdesk",
    "customer",
    "notice",
    "web",
    "portal",
    "app",
  ].map((w) => skeleton(w)),
);

function brandOwns(host: string): Brand | undefined {
  const reg = registrableDomain(host);
  return BRANDS.find((b) => isBrandDomain(b, reg));
}

/**
 * Checks one host. `contactDomains` are the user's contacts' domains (registrable form is
 * derived here); a host that IS one of them, or belongs to the brand, is never a lookalike.
 */
// Hosts repeat heavily across a mailbox (the same CDNs, trackers, senders); the check is pure,
// so results are memoised per host and contact list. Bounded: cleared when it grows too large.
const MEMO = new Map<string, LookalikeFinding | null>();
const MEMO_LIMIT = 20_000;

export function checkLookalike(
  rawHost: string,
  contactDomains: readonly string[] = [],
  ownDomains: readonly string[] = [],
): LookalikeFinding | null {
  const key =
    contactDomains.length === 0 && ownDomains.length === 0
      ? rawHost
      : `${rawHost}|${contactDomains.join(",")}|${ownDomains.join(",")}`;
  const cached = MEMO.get(key);
  if (cached !== undefined) return cached;
  const finding = checkLookalikeUncached(rawHost, contactDomains, ownDomains);
  if (MEMO.size >= MEMO_LIMIT) MEMO.clear();
  MEMO.set(key, finding);
  return finding;
}

/**
 * The user's own company domain spelled into another domain: northwind.com.evil.example,
 * northwind.com-docs.info, northwind-com.files.example. A company's tenant on a service
 * (northwind.zendesk.com) carries the name without its suffix, so the suffix must be there too.
 */
function ownDomainInside(host: string, own: string): boolean {
  const [label = "", ...suffix] = own.split(".");
  if (label.length < 3 || suffix.length === 0) return false;
  const tld = suffix.join("[.-]");
  const name = label.replace(/-/g, "-?");
  return new RegExp(`(^|[.-])${name}[.-]${tld}([.-]|$)`).test(host);
}

function checkLookalikeUncached(
  rawHost: string,
  contactDomains: readonly string[],
  ownDomains: readonly string[],
): LookalikeFinding | null {
  const host = unicodeHost(rawHost.toLowerCase());
  if (!host || brandOwns(host)) return null;
  const reg = registrableDomain(host);
  const own = ownDomains.map((d) => registrableDomain(d.toLowerCase()));
  if (own.includes(reg)) return null;
  for (const domain of own) {
    if (ownDomainInside(host, domain)) {
      return {
        kind: "own",
        host,
        imitates: domain,
        reason: {
          code: "own_domain_inside",
          severity: "danger",
          message: `The domain ${host} puts your organisation's domain ${domain} in front of ${reg}, which is someone else's.`,
        },
      };
    }
  }
  // Near-copies of the user's own domain count like near-copies of a contact's.
  const contacts = [...own, ...contactDomains.map((d) => registrableDomain(d.toLowerCase()))];
  if (contacts.includes(reg)) return null;
  const label = nameLabel(host);
  const labelSkeleton = skeleton(label);
  const nonAscii = /[^\x20-\x7e]/.test(host);

  for (const brand of BRANDS) {
    for (const word of brand.words) {
      const same = labelSkeleton === skeleton(word);
      // One slip in a name of six letters or more; two in a long one (myethwallet, myetherwalet).
      const distance = word.length >= 6 ? editDistance(label, word, 2) : 3;
      const typo = distance === 1 || (distance === 2 && word.length >= 10);
      if (same || typo) {
        // The brand's exact name under another suffix (slack.net) is often a different,
        // legitimate organisation; a disguised spelling (paypa1, rnicrosoft) never is.
        const exactName = label === word;
        if (exactName && word.length < 6) continue;
        return {
          kind: "brand",
          host,
          imitates: brand.name,
          reason: {
            code: "lookalike_domain",
            severity: exactName ? "warning" : "danger",
            message: `The domain ${host} imitates ${brand.name} but is not one of ${brand.name}'s domains.`,
          },
        };
      }
    }
    // Combo-squatting: the brand as a whole part of the host (paypal-secure.com,
    // paypal.com.evil.example) or glued to a service word (amazonsupport.net).
    const parts = host.split(/[.-]/);
    const skeletonParts = parts.map(skeleton);
    for (const word of brand.words) {
      const wordSkeleton = skeleton(word);
      // The exact name under another suffix was judged above; here only longer or extra labels count.
      const asPart = word.length >= 3 && label !== word && skeletonParts.includes(wordSkeleton);
      const glued =
        word.length >= 5 &&
        labelSkeleton !== wordSkeleton &&
        ((SERVICE_WORDS.has(labelSkeleton.slice(wordSkeleton.length)) &&
          labelSkeleton.startsWith(wordSkeleton)) ||
          (SERVICE_WORDS.has(labelSkeleton.slice(0, labelSkeleton.length - wordSkeleton.length)) &&
            labelSkeleton.endsWith(wordSkeleton)));
      // A long brand name inside a longer label (metamaskwebwallet, microsoft365-teams): short
      // names would match ordinary words, six letters and more rarely do.
      const inside =
        !asPart &&
        !glued &&
        wordSkeleton.length >= 6 &&
        skeletonParts.some((p) => p !== wordSkeleton && p.includes(wordSkeleton));
      if (asPart || glued || inside) {
        // Only in a subdomain label (outlook.example.biz) it is weaker evidence, unless the host
        // spells out a whole brand domain (accounts.google.com.evil.example).
        const subdomainOnly =
          !skeleton(label).includes(wordSkeleton) && !brand.domains.some((d) => host.includes(`${d}.`));
        return {
          kind: "brand",
          host,
          imitates: brand.name,
          reason: {
            code: "brand_in_domain",
            severity: subdomainOnly ? "warning" : "danger",
            message: `The domain ${host} uses the name ${brand.name} but does not belong to ${brand.name}.`,
          },
        };
      }
    }
  }

  for (const contact of contacts) {
    const contactLabel = nameLabel(contact);
    if (contactLabel.length < 4) continue;
    const same = skeleton(contactLabel) === labelSkeleton;
    const typo = editDistance(label, contactLabel, 1) === 1;
    if (same || typo) {
      return {
        kind: "contact",
        host,
        imitates: contact,
        reason: {
          code: "lookalike_contact_domain",
          severity: "danger",
          message: own.includes(contact)
            ? `The domain ${host} looks like ${contact}, your organisation's domain, but is different.`
            : `The domain ${host} looks like ${contact}, a domain you correspond with, but is different.`,
        },
      };
    }
  }

  if (rawHost.includes("xn--") || nonAscii) {
    return {
      kind: "punycode",
      host,
      imitates: null,
      reason: {
        code: "punycode_domain",
        severity: "warning",
        message: `The domain ${rawHost} uses international characters that can disguise another name.`,
      },
    };
  }
  return null;
}
