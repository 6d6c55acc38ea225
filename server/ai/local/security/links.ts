import type { SecurityReason } from "../../../../contract/ai.ts";
import { BRANDS, isBrandDomain } from "./brands.ts";
import { hostOfUrl, isIpHost, registrableDomain } from "./domains.ts";

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
    const text = (match[2] ?? "")
      .replace(/<[^>]*>/g, " ")
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

export function checkLinks(anchors: readonly Anchor[]): LinkFindings {
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
      add({
        code: severe ? "link_text_mismatch_brand" : "link_text_mismatch",
        severity: severe ? "danger" : "warning",
        message: `A link shows ${shown} but goes to ${host}.`,
      });
    }
  }
  return { reasons, hrefHosts: [...hosts] };
}

/** Hosts of bare URLs in plain text (bounded). */
export function urlsInText(text: string, max = 50): string[] {
  const hosts: string[] = [];
  for (const match of text.matchAll(/\bhttps?:\/\/[^\s<>"')]+/gi)) {
    const host = hostOfUrl(match[0]);
    if (host) hosts.push(host);
    if (hosts.length >= max) break;
  }
  return hosts;
}
