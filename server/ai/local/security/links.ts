import type { SecurityReason } from "../../../../contract/ai.ts";
import { tagsToSpaces } from "../html-tags.ts";
import { ruleTable } from "../rules/rule-table.ts";
import { BRANDS, isBrandDomain } from "./brands.ts";
import { hostOfUrl, isIpHost, registrableDomain } from "./domains.ts";
import { RUNS_CODE, TRUSTED_LOOKING } from "./file-types.ts";

const rules = ruleTable("security");

/**
 * Links whose visible text names one site while the href goes to another, plus hrefs that are
 * dangerous by themselves (raw IP, userinfo trick, javascript:/data:). Anchors are parsed with a
 * bounded regex: the scan must stay cheap, and a crafted body must not make it slow.
 */

export interface Anchor {
  href: string;
  text: string;
}

const MAX_ANCHORS = 200;

export function extractAnchors(html: string): Anchor[] {
  const anchors: Anchor[] = [];
  const pattern = /<a\b([^>]{0,2000})>([\s\S]{0,2000}?)<\/a\s*>/gi;
  for (const match of html.matchAll(pattern)) {
    const attrs = match[1] ?? "";
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    const value = (href?.[1] ?? href?.[2] ?? href?.[3] ?? "").trim();
    if (!value) continue;
    const text = tagsToSpaces(match[2] ?? "")
      .replace(/&nbsp;/gi, " ")
      .replace(/&amp;/gi, "&")
      .replace(/\s+/g, " ")
      .trim();
    anchors.push({ href: value.replace(/&amp;/gi, "&"), text });
    if (anchors.length >= MAX_ANCHORS) break;
  }
  return anchors;
}

/** A domain named in link text ("www.paypal.com", "https://paypal.com/login", "paypal.com"). */
function domainInText(text: string): string | null {
  const url = hostOfUrl(text);
  if (url) return url;
  const bare = /^(?:www\.)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?:[/:?#]\S*)?$/i.exec(text.trim());
  return bare?.[1] ? bare[1].toLowerCase() : null;
}

function brandOf(host: string) {
  const reg = registrableDomain(host);
  return BRANDS.find((b) => isBrandDomain(b, reg));
}

export interface LinkFindings {
  reasons: SecurityReason[];
  /** Registrable domains the links point to (for the lookalike check). */
  hrefHosts: string[];
}

/**
 * `senderSites` are the registrable domains the mail comes from (the From domain, and for relayed
 * mail the original sender's): a plain mismatch whose href stays on one of them is the sender's
 * own click tracking ("dilbert.com" shown, ummail4.unitedmedia.com linked from unitedmedia.com),
 * so it is not reported. Text naming a brand still counts wherever the href goes.
 */
export function checkLinks(anchors: readonly Anchor[], senderSites: readonly string[] = []): LinkFindings {
  const reasons: SecurityReason[] = [];
  const hosts = new Set<string>();
  const seenCodes = new Set<string>();
  const add = (reason: SecurityReason) => {
    // One reason per kind keeps the panel readable; the first example is the one shown.
    if (seenCodes.has(reason.code)) return;
    seenCodes.add(reason.code);
    reasons.push(reason);
  };
  for (const anchor of anchors) {
    const href = anchor.href;
    if (/^\s*(javascript|data|vbscript):/i.test(href)) {
      add({
        code: "script_link",
        severity: "danger",
        message: "A link runs code instead of opening a page.",
      });
      continue;
    }
    const authority = /^\s*https?:\/\/([^/?#\s]+)/i.exec(href)?.[1] ?? "";
    const host = hostOfUrl(href);
    if (!host) continue;
    hosts.add(host);
    if (authority.includes("@")) {
      add({
        code: "link_userinfo",
        severity: "danger",
        message: `A link disguises its destination: it looks like ${authority.split("@")[0]} but goes to ${host}.`,
      });
    }
    if (isIpHost(host)) {
      add({
        code: "link_ip_address",
        severity: "warning",
        message: `A link goes to a bare IP address (${host}).`,
      });
    }
    const shown = domainInText(anchor.text);
    if (shown && registrableDomain(shown) !== registrableDomain(host)) {
      const shownBrand = brandOf(shown);
      const hrefBrand = brandOf(host);
      // Text naming a brand while the href leaves that brand is the classic phish; other
      // mismatches are often newsletter click-tracking, so they only count as a warning.
      const severe = shownBrand !== undefined && shownBrand !== hrefBrand;
      if (!severe && senderSites.includes(registrableDomain(host))) continue;
      add({
        code: severe ? "link_text_mismatch_brand" : "link_text_mismatch",
        severity: severe ? "danger" : "warning",
        message: `A link shows ${shown} but goes to ${host}.`,
      });
    }
  }
  return { reasons, hrefHosts: [...hosts] };
}

/** Bare http(s) URLs in plain text (bounded). */
export function urlsIn(text: string, max = 50): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(URL_IN_TEXT)) {
    urls.push(match[0]);
    if (urls.length >= max) break;
  }
  return urls;
}
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"')]+/gi;

/** Files that run code when opened: a link straight to one is a download of a program. */
const PROGRAM_EXTENSIONS = new Set<string>([...RUNS_CODE, "apk", "dmg", "pkg"]);
// A cheap first look: most URLs end in a page, not a program.
const PROGRAM_HINT = new RegExp(`\\.(?:${[...PROGRAM_EXTENSIONS].join("|")})(?:$|[?#&])`, "i");
/** Extensions people trust, put in front of a real one to disguise it (invoice.pdf.exe). */
const DECOY_EXTENSIONS = new Set<string>([...TRUSTED_LOOKING, "gif", "mp3", "avi", "mpg"]);
const URGES_TO_RUN = rules.regex("urges-to-run");

/**
 * The URL before its fragment, as `url.replace(/#.*$/, "")` gave it, in one pass: that pattern
 * rescanned the rest of the line from every "#" of a long run of them (issue 34).
 */
export function withoutFragment(url: string): string {
  // "." stops at line ends and "$" is the end of the text: only the last line's first "#" counts.
  const lastLine = Math.max(...["\n", "\r", "\u2028", "\u2029"].map((end) => url.lastIndexOf(end)));
  const hash = url.indexOf("#", lastLine + 1);
  return hash === -1 ? url : url.slice(0, hash);
}

/** The program a URL downloads ("setup.exe", from the path or a query value), or null. */
export function programInUrl(url: string): { file: string; ext: string; decoy: string | null } | null {
  const bare = withoutFragment(url);
  const query = bare.indexOf("?");
  const path = query === -1 ? bare : bare.slice(0, query);
  const candidates = [path.slice(path.lastIndexOf("/") + 1)];
  if (query !== -1)
    for (const part of bare.slice(query + 1).split("&")) candidates.push(part.slice(part.indexOf("=") + 1));
  for (const candidate of candidates) {
    const file = candidate.toLowerCase();
    const parts = file.split(".");
    if (parts.length < 2) continue;
    const ext = parts[parts.length - 1] ?? "";
    if (!PROGRAM_EXTENSIONS.has(ext)) continue;
    const before = parts.length > 2 ? (parts[parts.length - 2] ?? "") : "";
    return { file: candidate.slice(0, 80), ext, decoy: DECOY_EXTENSIONS.has(before) ? before : null };
  }
  return null;
}

/**
 * Links that download a program. From the sender's own site it is the vendor's installer (info:
 * the sender's authentication checks decide how far that site is trusted). From anywhere else it
 * is a warning, and a danger when the file hides behind a bare IP address or a decoy extension, or
 * the text urges the reader to run or install it. One reason at most: the worst link is shown.
 */
export function checkProgramLinks(
  urls: readonly string[],
  senderSites: readonly string[],
  text: string,
): SecurityReason[] {
  let worst: SecurityReason | null = null;
  const rank = { info: 0, warning: 1, danger: 2 } as const;
  let urged: boolean | null = null;
  for (const url of urls) {
    if (!PROGRAM_HINT.test(url)) continue;
    const program = programInUrl(url);
    if (!program) continue;
    const host = hostOfUrl(url.replace(/^\s*ftp:/i, "http:"));
    if (!host) continue;
    let reason: SecurityReason;
    if (senderSites.includes(registrableDomain(host))) {
      reason = {
        code: "program_link",
        severity: "info",
        message: `A link downloads the program "${program.file}" from the sender's own site ${host}.`,
      };
    } else if (program.decoy) {
      reason = {
        code: "program_link",
        severity: "danger",
        message: `A link downloads "${program.file}", a program that pretends to be a .${program.decoy} file.`,
      };
    } else if (isIpHost(host)) {
      reason = {
        code: "program_link",
        severity: "danger",
        message: `A link downloads the program "${program.file}" from the bare IP address ${host}.`,
      };
    } else {
      urged ??= URGES_TO_RUN.test(text);
      reason = {
        code: "program_link",
        severity: urged ? "danger" : "warning",
        message: urged
          ? `A link downloads the program "${program.file}" from ${host}, and the message urges you to run or install it.`
          : `A link downloads the program "${program.file}" from ${host}, a different site from the sender's.`,
      };
    }
    if (!worst || rank[reason.severity] > rank[worst.severity]) worst = reason;
    if (worst.severity === "danger") break;
  }
  return worst ? [worst] : [];
}
