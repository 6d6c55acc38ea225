import DOMPurify from "dompurify";
import { MAIL_FRAME_SCRIPT, MAIL_FRAME_SCRIPT_HASH } from "../../../../contract/mail-frame.ts";
import { cidTarget, type InlineImages } from "./cid.ts";

/** What the reader renders: the sanitized document, split so it can go into the frame's srcdoc. */
export interface SanitizedEmail {
  /** `<style>` elements from the mail's head (sanitized, remote URLs removed unless allowed). */
  headStyles: string;
  /** The sanitized `<body>` element, attributes included (bgcolor, style). */
  bodyOuterHtml: string;
  /** How many remote images, backgrounds or stylesheets were removed. */
  blockedRemote: number;
}

const URL_ATTRIBUTES = ["src", "background", "poster"] as const;
// Stands in for the frame's base URL when classifying: a relative reference resolves onto it.
const PROBE_BASE = "https://relative.invalid/";

// A dedicated instance: hooks are per instance, so nothing else in the app shares them.
const purifier = DOMPurify(window);

let allowRemote = false;
let blocked = 0;
let inlineImages: InlineImages = new Map();

/**
 * inline: data: and cid:, which never leave the device. remote: an http(s) address (the reader's
 * "Show images" decides). other: anything else (relative, other schemes), never kept. The
 * browser's own URL parser decides, so the forms it forgives when loading (https:\\host, https:host,
 * tabs or control characters inside the scheme) are read the way it would load them.
 */
function classifyUrl(value: string): "inline" | "remote" | "other" {
  let url: URL;
  try {
    url = new URL(value, PROBE_BASE);
  } catch {
    return "other";
  }
  if (url.protocol === "data:" || url.protocol === "cid:") return "inline";
  if (url.protocol === "https:" || url.protocol === "http:") {
    return url.host === new URL(PROBE_BASE).host ? "other" : "remote";
  }
  return "other";
}

/** True (and counted) when a reference must go: remote before consent, anything not inline or remote always. */
function mustRemove(value: string): boolean {
  const kind = classifyUrl(value);
  if (kind === "inline" || (kind === "remote" && allowRemote)) return false;
  blocked++;
  return true;
}

// After the CSSOM has parsed a value, every reference is serialized as url("...") whatever the
// sender wrote (escapes such as \75 rl( are resolved); image-set() may also name bare strings.
const CSS_URL = /url\(\s*(?:"((?:[^"\\]|\\.)*)"|([^)"'\s]+))\s*\)/gi;
const CSS_STRING = /"((?:[^"\\]|\\.)*)"/g;

function unescapeCssString(value: string): string {
  return value.replace(/\\([0-9a-f]{1,6}\s?|[\s\S])/gi, (_, esc: string) =>
    /^[0-9a-f]/i.test(esc) ? String.fromCodePoint(Number.parseInt(esc.trim(), 16) || 0xfffd) : esc,
  );
}

function cssReferences(value: string): string[] {
  const refs = [...value.matchAll(CSS_URL)].map((m) => unescapeCssString(m[1] ?? m[2] ?? ""));
  if (/image-set\(/i.test(value))
    refs.push(...[...value.matchAll(CSS_STRING)].map((m) => unescapeCssString(m[1] ?? "")));
  return refs;
}

/** Drops every declaration that names a reference the frame may not load yet. */
function scrubDeclarations(style: CSSStyleDeclaration): void {
  for (const property of [...style]) {
    const refs = cssReferences(style.getPropertyValue(property));
    if (refs.length > 0 && refs.some((ref) => mustRemove(ref))) style.removeProperty(property);
  }
}

function scrubRules(rules: CSSRuleList): void {
  for (const rule of rules) {
    if ("style" in rule && rule.style instanceof CSSStyleDeclaration) scrubDeclarations(rule.style);
    if ("cssRules" in rule && rule.cssRules instanceof CSSRuleList) scrubRules(rule.cssRules);
  }
}

// Legacy script hooks in CSS (old IE and Firefox); harmless today, but never worth keeping.
const LEGACY_CSS = /expression\s*\(|-moz-binding|behavior\s*:/gi;

/**
 * A <style> element's text, parsed by the browser's CSSOM (a constructed sheet that is never
 * applied, so it loads nothing) and written back from the parsed rules: what the browser would not
 * understand is gone, escapes are resolved, @import is dropped (constructed sheets refuse it), and
 * declarations with remote references are removed before consent. The frame's CSP is what
 * actually blocks loads; this keeps the "Show images" count honest and the markup clean.
 */
function scrubStyleSheet(css: string): string {
  blocked += (css.match(/@import/gi) ?? []).length;
  const sheet = new CSSStyleSheet();
  try {
    sheet.replaceSync(css.replace(LEGACY_CSS, "invalid"));
  } catch {
    return "";
  }
  scrubRules(sheet.cssRules);
  return [...sheet.cssRules].map((rule) => rule.cssText).join("\n");
}

purifier.addHook("uponSanitizeElement", (node, data) => {
  if (data.tagName === "style" && node.textContent) node.textContent = scrubStyleSheet(node.textContent);
});

purifier.addHook("afterSanitizeAttributes", (node) => {
  if (!(node instanceof Element)) return;
  for (const name of URL_ATTRIBUTES) {
    const value = node.getAttribute(name);
    // Tracking pixels: a remote image tells the sender when and where the mail was opened.
    if (value !== null && mustRemove(value)) node.removeAttribute(name);
    else if (value !== null) {
      // The mail's own image where the sender put it: part of the mail, so no consent needed.
      const inline = cidTarget(value, inlineImages);
      if (inline) node.setAttribute(name, inline);
    }
  }
  const srcset = node.getAttribute("srcset");
  if (srcset !== null) {
    const urls = srcset.split(",").map((candidate) => candidate.trim().split(/\s+/)[0] ?? "");
    if (urls.some((url) => url !== "" && mustRemove(url))) node.removeAttribute("srcset");
  }
  if (node.hasAttribute("style") && node instanceof HTMLElement) {
    // The inline style as the browser parsed it: escapes resolved, unknown or invalid CSS gone.
    node.setAttribute("style", node.getAttribute("style")?.replace(LEGACY_CSS, "invalid") ?? "");
    scrubDeclarations(node.style);
    node.setAttribute("style", node.style.cssText);
  }
  if ((node.tagName === "A" || node.tagName === "AREA") && node.hasAttribute("href")) {
    // Links leave the sandbox in a new tab and tell the destination nothing about us.
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

/**
 * Sanitizes a sender's HTML with DOMPurify (HTML profile only: no SVG or MathML; no forms,
 * frames, base or meta). Remote images and CSS URLs are removed unless `allowRemoteImages`;
 * `cid:` image references the mail carries become their attachment addresses (`images`).
 * The result is shown only inside the sandboxed frame, whose own CSP is what blocks loads.
 */
export function sanitizeEmailHtml(
  html: string,
  allowRemoteImages: boolean,
  images: InlineImages = new Map(),
): SanitizedEmail {
  allowRemote = allowRemoteImages;
  blocked = 0;
  inlineImages = images;
  try {
    const root = purifier.sanitize(html, {
      USE_PROFILES: { html: true },
      WHOLE_DOCUMENT: true,
      RETURN_DOM: true,
      FORBID_TAGS: [
        "form",
        "input",
        "button",
        "textarea",
        "select",
        "option",
        "base",
        "meta",
        "link",
        "iframe",
        "frame",
        "frameset",
        "object",
        "embed",
        "portal",
      ],
      FORBID_ATTR: ["action", "formaction", "ping", "srcdoc"],
    });
    if (!(root instanceof Element)) throw new Error("DOMPurify returned no document element");
    const headStyles = [...root.querySelectorAll("head style")].map((s) => s.outerHTML).join("");
    const body = root.querySelector("body");
    return {
      headStyles,
      bodyOuterHtml: body?.outerHTML ?? "<body></body>",
      blockedRemote: blocked,
    };
  } finally {
    allowRemote = false;
    inlineImages = new Map();
  }
}

/** Base styles for the frame. */
export const FRAME_BASE_CSS =
  "html,body{margin:0;padding:0}body{padding:12px;font:14px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;color:#0f172a;overflow-wrap:anywhere;word-break:break-word}img{max-width:100%;height:auto}table{max-width:100%}pre{white-space:pre-wrap}";

/**
 * The frame's own CSP (decision 0018). Whatever the sanitizer missed, the browser loads nothing
 * the person did not allow: images, media and fonts only from data: and cid: (and images and
 * media from https: after "Show images"), styles only inline, no requests, forms, frames or
 * base URL, and one script, the fixed height reporter, by hash. The app's CSP, which a srcdoc
 * frame inherits, applies on top.
 */
export function frameCsp(allowRemoteImages: boolean, inlineSource?: string): string {
  const own = inlineSource ? ` ${inlineSource}` : "";
  const images = allowRemoteImages ? `data: cid:${own} https:` : `data: cid:${own}`;
  return [
    "default-src 'none'",
    `script-src ${MAIL_FRAME_SCRIPT_HASH}`,
    "style-src 'unsafe-inline'",
    `img-src ${images}`,
    `media-src ${images}`,
    "font-src data: cid:",
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/**
 * The iframe's document: the frame CSP first, no referrer, links to new tabs, the height reporter.
 * `inlineSource` (a CSP source: the attachment route's absolute path prefix) lets the mail's own
 * cid: images load; it is given only when the mail has some.
 */
export function buildSrcDoc(
  email: SanitizedEmail,
  allowRemoteImages: boolean,
  inlineSource?: string,
): string {
  return (
    "<!doctype html><html><head>" +
    '<meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${frameCsp(allowRemoteImages, inlineSource)}">` +
    '<meta name="referrer" content="no-referrer">' +
    '<base target="_blank">' +
    `<style>${FRAME_BASE_CSS}</style>` +
    // In the head, before any of the mail, so nothing the mail contains can swallow it.
    `<script>${MAIL_FRAME_SCRIPT}</script>` +
    `${email.headStyles}</head>${email.bodyOuterHtml}</html>`
  );
}
