import DOMPurify from "dompurify";

/** What the reader renders: the sanitized document split so it can go into a srcdoc and be measured. */
export interface SanitizedEmail {
  /** `<style>` elements from the mail's head (sanitized, remote URLs removed unless allowed). */
  headStyles: string;
  /** The sanitized `<body>` element, attributes included (bgcolor, style). */
  bodyOuterHtml: string;
  /** The body's children only, for measuring the height in the app document. */
  bodyInnerHtml: string;
  /** How many remote images, backgrounds or stylesheets were removed. */
  blockedRemote: number;
}

const REMOTE_URL = /^\s*(?:https?:)?\/\//i;
// url(...) pointing at another host, in style attributes and <style> elements.
const CSS_REMOTE_URL = /url\(\s*(['"]?)\s*(?:https?:)?\/\/[^)]*\)/gi;
const CSS_IMPORT = /@import\s+[^;]+;?/gi;
const URL_ATTRIBUTES = ["src", "background", "poster"] as const;

// A dedicated instance: hooks are per instance, so nothing else in the app shares them.
const purifier = DOMPurify(window);

let allowRemote = false;
let blocked = 0;

function scrubCss(css: string): string {
  return (
    css
      // Legacy script hooks in CSS (old IE and Firefox); harmless today, but never worth keeping.
      .replace(/expression\s*\(|-moz-binding|behavior\s*:/gi, "invalid")
      .replace(CSS_IMPORT, () => {
        blocked++;
        return "";
      })
      .replace(CSS_REMOTE_URL, (match) => {
        if (allowRemote) return match;
        blocked++;
        return "none";
      })
  );
}

purifier.addHook("uponSanitizeElement", (node, data) => {
  if (data.tagName === "style" && node.textContent) node.textContent = scrubCss(node.textContent);
});

purifier.addHook("afterSanitizeAttributes", (node) => {
  if (!(node instanceof Element)) return;
  for (const name of URL_ATTRIBUTES) {
    const value = node.getAttribute(name);
    if (value === null) continue;
    // Tracking pixels: a remote image tells the sender when and where the mail was opened.
    if (REMOTE_URL.test(value) && !allowRemote) {
      node.removeAttribute(name);
      blocked++;
    }
  }
  const srcset = node.getAttribute("srcset");
  if (srcset !== null && !allowRemote && /(?:https?:)?\/\//i.test(srcset)) {
    node.removeAttribute("srcset");
    blocked++;
  }
  const style = node.getAttribute("style");
  if (style !== null) node.setAttribute("style", scrubCss(style));
  if ((node.tagName === "A" || node.tagName === "AREA") && node.hasAttribute("href")) {
    // Links leave the sandbox in a new tab and tell the destination nothing about us.
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

/**
 * Sanitizes a sender's HTML with DOMPurify (HTML profile only: no SVG or MathML; no forms,
 * frames, base or meta). Remote images and CSS URLs are removed unless `allowRemoteImages`.
 * The result is still shown only inside a sandboxed, script-less iframe with its own CSP.
 */
export function sanitizeEmailHtml(html: string, allowRemoteImages: boolean): SanitizedEmail {
  allowRemote = allowRemoteImages;
  blocked = 0;
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
      bodyInnerHtml: body?.innerHTML ?? "",
      blockedRemote: blocked,
    };
  } finally {
    allowRemote = false;
  }
}

/** Base styles for the frame (and the measuring copy), so both lay out the same way. */
export const FRAME_BASE_CSS =
  "html,body{margin:0;padding:0}body{padding:12px;font:14px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;color:#0f172a;overflow-wrap:anywhere;word-break:break-word}img{max-width:100%;height:auto}table{max-width:100%}pre{white-space:pre-wrap}";

/** The iframe's document: a strict CSP (no scripts, no fetches; images only as allowed) and no referrer. */
export function buildSrcDoc(email: SanitizedEmail, allowRemoteImages: boolean): string {
  const imgSrc = allowRemoteImages ? "data: https: http:" : "data:";
  const csp = `default-src 'none'; img-src ${imgSrc}; style-src 'unsafe-inline'; font-src data:`;
  return (
    "<!doctype html><html><head>" +
    '<meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    '<meta name="referrer" content="no-referrer">' +
    '<base target="_blank">' +
    `<style>${FRAME_BASE_CSS}</style>` +
    `${email.headStyles}</head>${email.bodyOuterHtml}</html>`
  );
}
