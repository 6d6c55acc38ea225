/**
 * Quoted history inside one message of a conversation: the earlier messages a reply carries below
 * its own text. The reader folds it behind "Show quoted text", as mail clients do, since the
 * conversation shows those messages already. Only a quote that runs to the end of the message is
 * folded (a reply written between quoted lines is left as it is), and never a whole message.
 */

export interface SplitText {
  /** The message's own text. */
  main: string;
  /** The quoted history, from its first line (an attribution such as "On ... wrote:") to the end; null when there is none. */
  quoted: string | null;
}

// Lines longer than this are prose, not a header or an attribution; they are not examined.
const MAX_MARKER_LINE = 300;
// How far below a "From:" line a "Sent:"/"Date:" line may be for the two to be a reply header.
const HEADER_SPAN = 4;

function isSeparatorLine(line: string): boolean {
  // "--- Original Message ---" (Mailwise's replies), "-----Original Message-----" (Outlook),
  // "----- Forwarded message -----" is a forward, which is the message's content: kept.
  if (!line.startsWith("--") || !line.endsWith("--")) return false;
  return line.replace(/-/g, "").trim().toLowerCase() === "original message";
}

function isHeaderLine(line: string, names: readonly string[]): boolean {
  const colon = line.indexOf(":");
  if (colon <= 0) return false;
  return names.includes(line.slice(0, colon).trim().toLowerCase());
}

function nextNonEmpty(lines: readonly string[], from: number): number {
  for (let i = from; i < lines.length; i++) if ((lines[i] ?? "").trim() !== "") return i;
  return -1;
}

/** An Outlook reply header: "From: ..." followed closely by "Sent: ..." or "Date: ...". */
function isReplyHeader(lines: readonly string[], i: number): boolean {
  if (!isHeaderLine((lines[i] ?? "").trim(), ["from"])) return false;
  for (let j = i + 1; j < Math.min(lines.length, i + 1 + HEADER_SPAN); j++)
    if (isHeaderLine((lines[j] ?? "").trim(), ["sent", "date"])) return true;
  return false;
}

/** "On Mon, 3 Jun 2024 at 10:00, Dana <dana@example.org> wrote:", possibly wrapped over two lines. */
function attributionLines(lines: readonly string[], i: number): number {
  const line = (lines[i] ?? "").trim();
  if (line.endsWith("wrote:") && line.startsWith("On ")) return 1;
  const next = (lines[i + 1] ?? "").trim();
  if (line.startsWith("On ") && next.length <= MAX_MARKER_LINE && next.endsWith("wrote:")) return 2;
  return 0;
}

const isQuoteLine = (line: string) => line.trimStart().startsWith(">");

/** True when every non-empty line from `from` on is a "> " quote line. */
function quotedToEnd(lines: readonly string[], from: number): boolean {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim() !== "" && !isQuoteLine(line)) return false;
  }
  return true;
}

/** Where the quoted history starts (a line index), or -1. Linear in the text's length. */
function quoteStart(lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? "";
    if (raw.length > MAX_MARKER_LINE) continue;
    const line = raw.trim();
    if (line === "") continue;
    if (isSeparatorLine(line)) return i;
    if (/^_{10,}$/.test(line)) {
      const next = nextNonEmpty(lines, i + 1);
      if (next >= 0 && isReplyHeader(lines, next)) return i;
    }
    if (isReplyHeader(lines, i)) {
      // The header of a forwarded message introduces the content the sender meant to pass on.
      const above = nextNonEmptyAbove(lines, i - 1);
      if (above >= 0 && /forwarded message/i.test(lines[above] ?? "")) return -1;
      return i;
    }
    const attribution = attributionLines(lines, i);
    if (attribution > 0) return i;
    if (isQuoteLine(raw)) {
      if (!quotedToEnd(lines, i)) {
        // Interleaved quoting: skip this block, the reply continues below it.
        while (i + 1 < lines.length && isQuoteLine(lines[i + 1] ?? "")) i++;
        continue;
      }
      // "Dana wrote:" or any short line ending in a colon just above the block introduces it.
      const above = i > 0 ? nextNonEmptyAbove(lines, i - 1) : -1;
      if (above >= 0) {
        const intro = (lines[above] ?? "").trim();
        if (intro.length <= MAX_MARKER_LINE && intro.endsWith(":")) return above;
      }
      return i;
    }
  }
  return -1;
}

function nextNonEmptyAbove(lines: readonly string[], from: number): number {
  for (let i = from; i >= 0; i--) if ((lines[i] ?? "").trim() !== "") return i;
  return -1;
}

/** Splits a plain-text body into its own text and the quoted history below it. */
export function splitQuotedText(text: string): SplitText {
  const lines = text.split(/\r?\n/);
  const start = quoteStart(lines);
  if (start < 0) return { main: text, quoted: null };
  const main = lines.slice(0, start).join("\n").trimEnd();
  // A message that is all quote (a bare forward) shows whole.
  if (main.trim() === "") return { main: text, quoted: null };
  return { main, quoted: lines.slice(start).join("\n") };
}

/**
 * Where mail clients put the quoted history in HTML: Gmail's quote container, Apple Mail's and
 * Thunderbird's cite blockquotes and attribution, Outlook's reply header block (and the marker
 * it leaves just above it), Yahoo's quoted part.
 */
const QUOTE_SELECTORS = [
  ".gmail_quote_container",
  ".gmail_quote",
  "blockquote[type='cite' i]",
  ".moz-cite-prefix",
  "#appendonsend",
  "#divRplyFwdMsg",
  "#mail-editor-reference-message-container",
  ".yahoo_quoted",
].join(",");

export interface SplitHtml {
  /** The message without its quoted history (a whole document), or the original when nothing was folded. */
  main: string;
  hasQuoted: boolean;
}

/**
 * Splits an HTML body where its quoted history starts: that element and everything after it in
 * the document go. Parsed by DOMParser into an inert document (no scripts run, nothing loads);
 * the result is sanitized as any mail is before it is shown.
 */
export function splitQuotedHtml(html: string): SplitHtml {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const body = doc.body;
  let start = body.querySelector(QUOTE_SELECTORS);
  if (!start) return { main: html, hasQuoted: false };
  // Outlook draws a rule above its reply header; the rule belongs to the quote.
  const before = start.previousElementSibling;
  if (before?.tagName === "HR") start = before;
  for (let node: Node | null = start; node && node !== body; node = node.parentNode)
    while (node.nextSibling) node.nextSibling.remove();
  start.remove();
  const left = (body.textContent ?? "").trim() !== "" || body.querySelector("img") !== null;
  if (!left) return { main: html, hasQuoted: false };
  return { main: `<!doctype html>${doc.documentElement.outerHTML}`, hasQuoted: true };
}
