/**
 * Turns an email body into the text worth analysing: HTML to text, then quoted replies,
 * signatures and list/marketing footers cut off. Regex-based on purpose: a DOM parser would cost
 * more per email than the whole analysis budget (500 emails/s), and we only need text.
 */

import {
  commentsToSpaces,
  hiddenElementsToSpaces,
  listItemsToBullets,
  shortTagsToSpaces,
} from "./html-scan.ts";
import { ruleTable } from "./rules/rule-table.ts";

const rules = ruleTable("cleaning");

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  rsquo: "'",
  lsquo: "'",
  rdquo: '"',
  ldquo: '"',
  bull: "•",
  middot: "·",
  euro: "€",
  pound: "£",
};

function safeCodePoint(code: number): string {
  // Out-of-range or surrogate code points would throw or produce garbage: drop them.
  if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "";
  return String.fromCodePoint(code);
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const hex = body[1] === "x" || body[1] === "X";
      return safeCodePoint(Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** HTML to readable plain text: block elements become line breaks, everything else is dropped. */
export function htmlToText(html: string): string {
  return decodeEntities(
    shortTagsToSpaces(
      listItemsToBullets(
        hiddenElementsToSpaces(commentsToSpaces(html))
          .replace(/<br\s*\/?>/gi, "\n")
          .replace(/<\/(p|div|tr|li|h[1-6]|table|blockquote|section|article|header|footer)\s*>/gi, "\n"),
      ),
    ),
  )
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

// A line that starts the quoted original in a reply or forward; everything from it on is quoted.
const QUOTE_HEADER = [
  /^On .{3,200}wrote:\s*$/,
  /^On .{3,120}$/, // "On Tue, 3 Sep 2002, Alice" wrapped before "wrote:"; confirmed by the next line
  /^-{2,}\s*(Original Message|Forwarded message|Forwarded Message)\s*-{2,}/i,
  /^-{3}\s*Original Message\s*-{3}/i,
  /^_{20,}\s*$/,
  /^From: .+$/, // Outlook reply header block; confirmed by a Sent:/Date: line after it, or a pasted thread's "From: Full Name"
  /^Begin forwarded message:/i,
];
// A text passed on under a separator ("--- text message, 17/04 22:48 ---").
const PASSED_ON_TEXT =
  /^-{2,}\s*(text message|sms|whatsapp( message)?|message from [^-\n]{1,40})\b[^\n]{0,40}-{2,}\s*$/i;

const FOREIGN_WROTE = rules.regex("foreign-wrote");
const PHONE_FOOTER_FOREIGN = rules.regex("phone-footer-foreign");
const OUTLOOK_APP_FOREIGN = rules.regex("outlook-app-foreign");

const SIGNATURE_START = [
  /^-- ?$/,
  /^Sent from my (iPhone|iPad|Android|BlackBerry|mobile|Galaxy)/i,
  /^Get Outlook for (iOS|Android)/i,
  // The same phone footers in other languages.
  PHONE_FOOTER_FOREIGN,
  OUTLOOK_APP_FOREIGN,
];

const CLOSING = rules.regex("closing");

const FOOTER_LINE = rules.regex("footer-line");

const SALUTATION = rules.regex("salutation");

const BOILERPLATE = rules.regex("boilerplate");

const MACHINE_LINE = rules.regex("machine-line");

const CODE_LINE = rules.regex("code-line");

/** A row of comma-separated fields, each short (a pasted CSV line, spaces inside fields allowed). */
function csvRow(line: string): boolean {
  const fields = line.split(",");
  return (
    fields.length >= 4 && fields.every((f) => f.trim().length <= 30 && f.trim().split(/\s+/).length <= 3)
  );
}

const PASTED_ROW = rules.regex("pasted-row");

const CHAT_OR_FIELD = rules.regex("chat-or-field");

// A chat message pasted with its time and speaker on its own line ("Sat 5 Apr, 10:02 – Dave: Morning
// Ellie, running late", "[10:19] Dave: On my way", "[08:02, 01/05/2025] Daz: Morning"): a
// paragraph of such lines is the chat.
// Also a sender with how they are known and the time, then a colon ("June (next door), 14:02:").
const BULLET_TIME_SPEAKER =
  /^\s*[\w.'-]+( [\w.'-]+){0,3}(\s*[•·]\s*\d{1,2}:\d\d(\s?[AP]M)?| \([^)\n]{1,30}\),? \d{1,2}:\d\d(\s?[AP]M)?:)\s*$/i;
// A speaker line alone ("Gary Plumbing:") counts as chat only when the same speaker comes back.
const SPEAKER_ALONE = /^\s*[A-Z][\w'.-]*( [A-Z][\w'.-]*){1,3}:\s*$/;
const SMS_SENDER_LINE = rules.regex("sms-sender-line");
// A text passed on with its sender and how they are known ("Jackie (Dan's mum): Hi Ellis love...").
const LABELLED_CHAT_LINE = /^\s*[A-Z][\w'.-]*( [A-Z][\w'.-]*){0,2} \([^)\n]{1,30}\):\s+\S/;
// A sender's name before each of their texts ("Bowesfield Motors: Hi Dan, ..."): chat when the same
// name opens two lines or more.
const SPEAKER_PREFIX = /^\s*([A-Z][\w'.&-]*(?: [A-Z][\w'.&-]*){0,3}):\s+\S/;
// A report's export stamp ("Exported from HawkLog v2.3 on 20/05/2024 at 07:58").
const EXPORT_STAMP = /^\s*(exported|generated|printed|produced|created) (from|by|with|on|using)\b[^\n]*\d/i;
const TIMED_CHAT_LINE = rules.regex("timed-chat-line");

// A review pasted with its star rating ("★☆☆☆☆ Cancelled three times in one month"), and the
// review site's furniture after it.
const REVIEW_HEADER = /^\s*[★☆⭐]{3,}/;
const REVIEW_FURNITURE = rules.regex("review-furniture");

/** A pasted review: from its star rating down to the site's furniture after it. */
function dropReview(lines: string[]): void {
  const header = lines.findIndex((l) => REVIEW_HEADER.test(l));
  if (header === -1) return;
  const furniture = lines.findIndex((l, i) => i > header && REVIEW_FURNITURE.test(l));
  if (furniture === -1) return;
  let end = furniture;
  while (end < lines.length && (lines[end] ?? "").trim() !== "") end++;
  for (let k = header; k < end; k++) lines[k] = "";
}

// A form's short field in any case ("Control measures: ...", "Who is at risk: ..."). People write
// "Note: ..." too, so it counts only towards a paragraph made mostly of such lines.
const FORM_FIELD = /^\s*[A-Z][\w'&/().-]*( [\w'&/().-]+){0,4}:\s+\S/;

const QUOTED_PARAGRAPH = rules.regex("quoted-paragraph");

const ANNOUNCES_PASTE = rules.regex("announces-paste");

const PASTE_INTRO = rules.regex("paste-intro");

/** Whether the paragraph after the blank line at `i` is a table: two lines or more, mostly pasted rows. */
function tableFollows(lines: readonly string[], i: number): boolean {
  let start = i;
  while (start < lines.length && (lines[start] ?? "").trim() === "") start++;
  let end = start;
  while (end < lines.length && (lines[end] ?? "").trim() !== "") end++;
  const next = lines.slice(start, end);
  return next.length >= 2 && next.filter((l) => pastedLine(l)).length / next.length >= 0.6;
}

/** The first line after line `i` with something on it ("" when none). */
function nextWritten(lines: readonly string[], i: number): string {
  for (let k = i + 1; k < lines.length; k++) if ((lines[k] ?? "").trim() !== "") return lines[k] ?? "";
  return "";
}

/** A table row pasted with bars between three or more short cells ("8\" side plate | 4.0% | 9.8%"). */
function barRow(line: string): boolean {
  if (!line.includes(" | ")) return false;
  const cells = line.split(/\s\|\s/);
  return cells.length >= 3 && cells.every((c) => c.trim().length > 0 && c.trim().length <= 40);
}

const pastedLine = (line: string) =>
  barRow(line) ||
  MACHINE_LINE.test(line) ||
  CODE_LINE.test(line) ||
  csvRow(line) ||
  PASTED_ROW.test(line) ||
  CHAT_OR_FIELD.test(line);

// Pasted table rows: CSV or semicolon fields with no space anywhere (prose puts a space after a
// comma), tab-separated columns, or a Markdown table row.
const DATA_ROW =
  /^[^\s,;|]+(?:[,;|][^\s,;|]*){2,}$|^[^\t\n]*(?:\t[^\t\n]*){2,}$|^\|(?:[^|\n\r\u2028\u2029]*\|){2,}$/;

/**
 * A run-on line: long, with hardly a sentence stop, as pasted logs, CSV or wrapped-off text are.
 * One long sentence that ends with its stop is prose ("A reminder that the finance report ... as
 * required."): people write 250-character sentences, and a paragraph of prose on one line stays
 * prose when its writer left off the last full stop.
 */
function runOn(line: string): boolean {
  if (line.length < 220) return false;
  const stops = (line.match(/[.!?](\s|$)/g) ?? []).length;
  const ends = /[.!?]["')\]]?\s*$/.test(line);
  const oneSentence = line.length < 400 && ends && /,\s/.test(line);
  return stops < line.length / 180 && !oneSentence && !(line.length < 1000 && readsAsProse(line));
}

const FUNCTION_WORDS = new Set([
  "the",
  "and",
  "to",
  "of",
  "a",
  "is",
  "was",
  "that",
  "we",
  "i",
  "you",
  "it",
  "or",
  "if",
  "for",
  "with",
  "on",
  "in",
  "as",
]);

/** A long sentence of prose, not a paste: mostly plain words, many of them the little words of English. */
function readsAsProse(line: string): boolean {
  const tokens = line.split(/\s+/).filter(Boolean);
  const words = tokens.filter((t) => /^[a-z'’-]+[,;:.!?]?$/i.test(t));
  const little = tokens.filter((t) => FUNCTION_WORDS.has(t.toLowerCase().replace(/[,;:.!?]$/, ""))).length;
  return words.length >= 0.8 * tokens.length && little >= 0.2 * tokens.length;
}

const SIGNATURE_MARKER = rules.regex("signature-marker");

/** Trailing signature block without a closing word: name, title, company, phone, address lines. */
function signatureBlock(lines: readonly string[]): number {
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? "").trim() === "") end--;
  let start = end;
  while (start > 0 && (lines[start - 1] ?? "").trim() !== "") start--;
  const block = lines.slice(start, end).map((l) => l.trim());
  if (block.length === 0 || block.length > 6 || start === 0) return lines.length;
  const looksLikeSignature = block.every(
    (l) => l.length <= 90 && !/[.!?]$/.test(l.replace(/\b(inc|ltd|llc|co|jr|sr|dr)\.$/i, "")),
  );
  const marker = block.some((l) => SIGNATURE_MARKER.test(l));
  return looksLikeSignature && marker ? start : lines.length;
}

// A paste may open with its command line ("$ ls -la"); a sentence of prose ("Note: the hall is
// closed on Friday.") opens none, although it reads like a key and a value.
const pastedOpener = (line: string) =>
  pastedLine(line) && (!/[.!?]\s*$/.test(line) || MACHINE_LINE.test(line));

const POINTS_BACK = rules.regex("points-back");

/** A listing or a card: three lines or more, most without a sentence stop ("£145 · Used - good condition"). */
function fragmentBlock(paragraph: readonly string[]): boolean {
  const fragments = paragraph.filter((l) => !/[.!?]["')\]]?\s*$/.test(l.trim())).length;
  return paragraph.length >= 3 && fragments / paragraph.length >= 0.6;
}

const LISTING = rules.regex("listing");

// The sender's words pointing at what they paste after them: "What about this for your mum's present?"
const POINTS_FORWARD = /\b(what|how) about this( one)?\b|\b(look at|check out|have you seen) this\b/i;

const CALENDAR_WHEN = rules.regex("calendar-when");

const STAMP_LINE = rules.regex("stamp-line");

// A clause of a policy, contract or rule book, pasted with its number ("4.3 Single articles of
// high value. Any single article...").
const NUMBERED_CLAUSE = /^\s*\d{1,2}(\.\d{1,2})+\.?\s+[A-Z][^\n]{60,}$/;
// Minutes pasted with their item numbers ("4. Clubhouse maintenance" / "4.1 The committee noted..."
// / "ACTION: O. Tranter to provide quote."): a paragraph of numbered lines with a decimal one.
const MINUTE_ITEM = /^\s*\d{1,2}(\.\d{1,2})+\.?\s+\S/;
const NUMBERED_OR_FIELD = /^\s*\d{1,2}(\.\d{1,2})*\.?\s+\S|^\s*[A-Z][A-Z ]{1,20}:\s+\S/;
// Minutes under their header ("Present: ...", "Apologies: ..."): their items may be numbered plainly.
const MINUTES_HEADER = /^\s*(present|apologies|attendees|in attendance)\s*:/i;
const PLAIN_ITEM = /^\s*\d{1,2}\.\s+\S/;

const POINTS_BACK_AT_PASTE = rules.regex("points-back-at-paste");

const SPEAKS = rules.regex("speaks");
/** Someone speaks in the text, outside quotation marks: an article's quoted witness does not count. */
const speaks = (text: string) => SPEAKS.test(quotesToSpaces(text));

const POINTS_DOWN_NAMED = rules.regex("points-down-named");
const POINTS_DOWN_SAID = rules.regex("points-down-said");
/** The writer points down at another's text after theirs (both families of cleaning.rules). */
const pointsDown = (text: string) => POINTS_DOWN_NAMED.test(text) || POINTS_DOWN_SAID.test(text);

const CHASE_LINE = /\b(following up|chasing|bumping|resending|nudging|circling back)\b/i;
const PASTE_BELOW = rules.regex("paste-below");

// A social post's furniture: its header's age ("2h · 🌍") and its reactions ("👍 47  💬 23 comments").
const POST_AGE = /^\s*(\d{1,2}\s?[hmdw]|\d{1,2} (mins?|hrs?|hours?|days?)( ago)?|yesterday|just now)\s*·/i;
const POST_REACTIONS = /\b\d+\s*(comments?|shares?|likes?|reactions?|replies|reposts?|retweets?)\b/i;

// The writer's own voice inside a paste they point at: first person singular, or a question.
const OWN_VOICE = /\b(i|i'm|i've|i'd|i'll|me|my)\b|\?\s*$/i;

/**
 * After the writer points down at a paste ("Seen this and thought of you") and closes with their
 * name alone at the very end, the paragraphs between are the paste, except those in their own
 * voice: a notice, a bulletin or a job advert speaks as "we" and "you", not "I".
 */
function dropPointedPaste(lines: string[]): void {
  const paragraphs: Array<[number, number]> = [];
  for (let i = 0; i < lines.length; ) {
    if ((lines[i] ?? "").trim() === "") {
      i++;
      continue;
    }
    let end = i;
    while (end < lines.length && (lines[end] ?? "").trim() !== "") end++;
    paragraphs.push([i, end]);
    i = end;
  }
  const text = ([a, b]: [number, number]) => lines.slice(a, b).join(" ");
  const last = paragraphs.at(-1);
  if (!last || paragraphs.length < 3 || last[1] - last[0] !== 1) return;
  const closing = text(last).trim();
  if (!/^[\p{L}.' -]{1,20}$/u.test(closing) || closing.split(/\s+/).length > 3) return;
  const pointer = paragraphs.findIndex((p) => pointsDown(text(p)));
  if (pointer === -1) return;
  for (const p of paragraphs.slice(pointer + 1, -1)) {
    if (OWN_VOICE.test(quotesToSpaces(text(p)))) continue;
    for (let k = p[0]; k < p[1]; k++) lines[k] = "";
  }
}

/**
 * Each quotation on a line ("..." or “...”) replaced by one space, as
 * `.replace(/["“][^"”\n]*["”]/g, " ")` gave it, in one pass: the pattern rescanned the rest of
 * the line from each opening mark that no closing one follows (issue 34).
 */
export function quotesToSpaces(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '"' && text[i] !== "“") continue;
    let end = i + 1;
    while (end < text.length && text[end] !== '"' && text[end] !== "”" && text[end] !== "\n") end++;
    if (end < text.length && text[end] !== "\n") {
      out += `${text.slice(from, i)} `;
      from = end + 1;
    }
    // Unclosed: no later mark on this line is closed either.
    i = end;
  }
  return out + text.slice(from);
}

// A post quoted with its credit line under it ("— Posted by Lindsay Armstrong in Hexham
// Noticeboard · 2h · 43 reactions").
const POST_CREDIT = /^\s*(?:[—–-]\s*)?(posted|shared) by\b[^\n]{1,100}·/i;

/**
 * A pasted social post: from the paragraph with its age line to the one with its reactions, or
 * the paragraph above its credit line with the line itself.
 */
function dropSocialPost(lines: string[]): void {
  const credit = lines.findIndex((l) => POST_CREDIT.test(l));
  if (credit !== -1) {
    let start = credit - 1;
    while (start >= 0 && (lines[start] ?? "").trim() === "") start--;
    while (start >= 0 && (lines[start] ?? "").trim() !== "") start--;
    for (let k = start + 1; k <= credit; k++) lines[k] = "";
  }
  const age = lines.findIndex((l) => POST_AGE.test(l));
  if (age === -1) return;
  let start = age;
  while (start > 0 && (lines[start - 1] ?? "").trim() !== "") start--;
  const reactions = lines.findIndex((l, i) => i > age && POST_REACTIONS.test(l) && !speaks(l));
  let end = reactions === -1 ? age : reactions;
  // Without a reactions line the post is the paragraph after its header.
  if (reactions === -1) {
    while (end < lines.length && (lines[end] ?? "").trim() !== "") end++;
    while (end < lines.length && (lines[end] ?? "").trim() === "") end++;
  }
  while (end < lines.length && (lines[end] ?? "").trim() !== "") end++;
  for (let k = start; k < end; k++) lines[k] = "";
}

/** How many times each value occurs. */
function countOf(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

function dropPastedParagraphs(lines: string[]): void {
  dropSocialPost(lines);
  dropReview(lines);
  dropPointedPaste(lines);
  // How often each speaker line and each sender's prefix occurs, counted once: counting them
  // again for every line was quadratic in the number of lines (issue 34).
  const speakerCounts = countOf(lines.filter((l) => SPEAKER_ALONE.test(l)).map((l) => l.trim()));
  const prefixCounts = countOf(lines.map((l) => SPEAKER_PREFIX.exec(l)?.[1]).filter((p) => p !== undefined));
  const repeatedPrefix = (l: string) => {
    const p = SPEAKER_PREFIX.exec(l)?.[1];
    return p !== undefined && (prefixCounts.get(p) ?? 0) >= 2;
  };
  const repeatedSpeaker = (l: string) => SPEAKER_ALONE.test(l) && (speakerCounts.get(l.trim()) ?? 0) >= 2;
  const pointer = lines.findIndex(
    (l, i) => i > 0 && (lines[i - 1] ?? "").trim() === "" && POINTS_BACK_AT_PASTE.test(l),
  );
  for (let k = 0; k < pointer; k++) lines[k] = "";
  // A paragraph that says another's written text is below it ("confirmation below", "I only got
  // one confirmation (below)"): the paragraphs after it are that text.
  // A chase's "(see below)" points at the quoted thread, which quote handling cuts; the writer's
  // own paragraphs after it stay ("Just following up on this again (see below)").
  const below = lines.findIndex((l) => PASTE_BELOW.test(l) && !CHASE_LINE.test(l));
  if (below !== -1) {
    let end = below;
    while (end < lines.length && (lines[end] ?? "").trim() !== "") end++;
    for (let k = end; k < lines.length; k++) lines[k] = "";
  }
  // Announcements are read from the text as written, not after a paste before them was dropped.
  const original = [...lines];
  const minutesHeader = original.findIndex((l) => MINUTES_HEADER.test(l));
  // The last written line of `original` before the paragraph, kept as the loop goes: reading all
  // the lines above each paragraph again was quadratic in the number of lines (issue 34).
  let lastWritten: string | undefined;
  let scanned = 0;
  let start = 0;
  let inPaste = false;
  let writerSpoke = false;
  let pointedDown = false;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && (lines[i] ?? "").trim() !== "") continue;
    const paragraph = lines.slice(start, i).filter((l) => l.trim() !== "");
    const pasted = paragraph.filter((l) => pastedLine(l) || FORM_FIELD.test(l)).length;
    // Mostly pasted lines, or a paste that opens with one (a shell prompt and its output).
    const share = paragraph.length >= 2 ? pasted / paragraph.length : 0;
    // The paragraph after a line that announces a paste, or one wholly in quotation marks.
    for (; scanned < start; scanned++)
      if ((original[scanned] ?? "").trim() !== "") lastWritten = original[scanned];
    // A paste runs on through the paragraphs after it that speak to no one ("Also this week: new
    // cycle shelter opens..."), until the writer speaks again (I, we, you).
    const announced: boolean =
      (start > 0 && (lines[start - 1] ?? "").trim() === "" && PASTE_INTRO.test(lastWritten ?? "")) ||
      (inPaste && !speaks(paragraph.join(" ")));

    const listing = fragmentBlock(paragraph) || LISTING.test(paragraph.join("\n"));
    const commentedBelow = listing && POINTS_BACK.test(nextWritten(original, i));
    const pointedAt: boolean =
      listing && start > 0 && (POINTS_FORWARD.test(lastWritten ?? "") || pointedDown);
    const clause =
      (paragraph.length === 1 && NUMBERED_CLAUSE.test(paragraph[0] ?? "")) ||
      (paragraph.length >= 2 &&
        (paragraph.some((l) => MINUTE_ITEM.test(l)) ||
          (paragraph.filter((l) => PLAIN_ITEM.test(l)).length >= 2 &&
            minutesHeader !== -1 &&
            minutesHeader < start)) &&
        paragraph.every((l) => NUMBERED_OR_FIELD.test(l)));
    const invitationCard = paragraph.some((l) => CALENDAR_WHEN.test(l));
    const commentHeader = paragraph.length <= 2 && STAMP_LINE.test(paragraph.at(-1) ?? "");
    const chatOrReview =
      (paragraph.length > 0 &&
        paragraph.every(
          (l) =>
            TIMED_CHAT_LINE.test(l) ||
            SMS_SENDER_LINE.test(l) ||
            LABELLED_CHAT_LINE.test(l) ||
            repeatedPrefix(l) ||
            EXPORT_STAMP.test(l),
        )) ||
      // A report's title lines right above its table ("HawkLog – Weekly summary" / "Week
      // commencing 13/05/2024"): no sentence, no one speaking.
      // A line that points down ("notes from Tuesday below. Kate") is the writer's, not a title.
      (paragraph.length > 0 &&
        !speaks(paragraph.join(" ")) &&
        !/\b(below|underneath|as follows)\b/i.test(paragraph.join(" ")) &&
        paragraph.every((l) => !/[.!?]["')\]]?\s*$/.test(l.trim())) &&
        tableFollows(original, i)) ||
      REVIEW_HEADER.test(paragraph[0] ?? "") ||
      BULLET_TIME_SPEAKER.test(paragraph[0] ?? "") ||
      repeatedSpeaker(paragraph[0] ?? "");
    // A sign-off by name between the writer's words and the paste they point at ("Appa", "Cal")
    // stays for signOffByName, which cuts from it; the paste runs on past it.
    const signOffOnly: boolean =
      inPaste &&
      paragraph.length === 1 &&
      /^[\p{L}.' -]{1,20}$/u.test((paragraph[0] ?? "").trim()) &&
      (paragraph[0] ?? "").trim().split(/\s+/).length <= 3;
    const dropped: boolean =
      !signOffOnly &&
      (share >= 0.6 ||
        (share >= 0.4 && pastedOpener(paragraph[0] ?? "")) ||
        commentedBelow ||
        pointedAt ||
        clause ||
        invitationCard ||
        commentHeader ||
        chatOrReview ||
        (paragraph.length > 0 && (announced || QUOTED_PARAGRAPH.test(paragraph.join(" ")))));
    if (dropped) for (let k = start; k < i; k++) lines[k] = "";
    // Signed off after pointing down at a paste: everything after the name is that paste.
    if (signOffOnly && pointedDown) {
      for (let k = i; k < lines.length; k++) lines[k] = "";
      return;
    }
    if (paragraph.length > 0 && !signOffOnly) {
      pointedDown = !dropped && pointsDown(paragraph.join(" "));
      // A paste runs on after a table or log dropped under the writer's words, and after the
      // writer points down at it.
      inPaste = announced || (dropped && share >= 0.6 && writerSpoke) || pointedDown;
    }
    // Only under a person's own words is what follows a table more of the paste; in a system's
    // notice the text under its fields is the notice.
    if (!dropped && speaks(paragraph.join(" "))) writerSpoke = true;
    start = i + 1;
  }
}

export interface CleanedBody {
  /** The new content only: no quoted text, signature or footer. */
  text: string;
  hadQuotedReply: boolean;
  hadSignature: boolean;
  hadFooter: boolean;
}

const INLINE_ANNOUNCE = rules.regex("inline-announce");

/** Whether the writer announced inline answers and quoted lines ("> ...") follow the header. */
function inlineAnswers(kept: readonly string[], lines: readonly string[], i: number): boolean {
  if (!kept.some((l) => INLINE_ANNOUNCE.test(l))) return false;
  return lines.slice(i + 1, i + 12).some((l) => /^\s*>\s*\S/.test(l));
}

const OUTLOOK_SENT_FOREIGN = rules.regex("outlook-sent-foreign");

function isQuoteHeader(lines: string[], i: number): boolean {
  const line = (lines[i] ?? "").trim();
  const next = (lines[i + 1] ?? "").trim();
  if (QUOTE_HEADER[0]?.test(line)) return true;
  if (QUOTE_HEADER[1]?.test(line) && /wrote:\s*$/.test(next)) return true;
  for (const pattern of QUOTE_HEADER.slice(2, 5)) if (pattern.test(line)) return true;
  if (QUOTE_HEADER[5]?.test(line) && /^(Sent|Date|To):/i.test(next)) return true;
  // The same header block in other languages' Outlook ("Från:/Skickat:", "Da:/Inviato:", "De:/Enviado:").
  if (/^(Från|Fra|Von|Van|Da|De|Od|Lähettäjä|Feladó):\s.+/.test(line) && OUTLOOK_SENT_FOREIGN.test(next))
    return true;
  // Lotus Notes: "Robin Okafor/Operations/Saltmarsh@SALTMARSH", a date, then "To<tab>..." lines.
  if (
    /^\S(?=[^@\n]*\/)[^@\n]*@[A-Z0-9-]+\s*$/.test(line) &&
    lines.slice(i + 1, i + 5).some((l) => /^(To|cc|Subject)\t/.test(l))
  )
    return true;
  // A rule line (---, ___, ═══, ───) on its own after the sender's text: what follows is pasted
  // or quoted. Right under a line it underlines a heading instead.
  if (/^\s*([-_=*~]{3,}|[\u2500-\u257f]{3,})\s*$/.test(line) && (lines[i - 1] ?? "").trim() === "")
    return true;
  // A thread pasted without quote marks: a paragraph that opens "From: Kari Holm, NordHost".
  if (
    (lines[i - 1] ?? "").trim() === "" &&
    /^From:\s+("?[A-Z][\w'.-]+( [A-Z][\w'.-]+)+|\S+@\S+)/.test(line) &&
    next !== ""
  )
    return true;
  if (FOREIGN_WROTE.test(line) || PASSED_ON_TEXT.test(line)) return true;
  return QUOTE_HEADER[6]?.test(line) === true;
}

const ROLE_MAILBOX = rules.regex("role-mailbox");

/**
 * The first paragraph after the first that opens by greeting or addressing the sender by the
 * first word of their name or of their address ("Harriet Lister", hattie.lister@: "Hattie, ...").
 */
function addressesSender(lines: readonly string[], senderName: string, senderAddress: string): number {
  const names = [senderName.trim().split(/\s+/)[0] ?? "", senderAddress.split(/[^A-Za-z]/)[0] ?? ""]
    .map((n) => n.replace(/[^A-Za-z]/g, ""))
    .filter(
      (n) =>
        n.length >= 3 &&
        !ROLE_MAILBOX.test(n) &&
        !/^(dear|hi|hello|hey|hiya|morning|afternoon|evening|good|the)$/i.test(n),
    );
  if (names.length === 0) return lines.length;
  const opening = new RegExp(
    `^\\s*((dear|hi|hello|hey|hiya|morning|afternoon|evening|good (morning|afternoon|evening))\\s+)?(${names.join("|")})\\s*[,:!–—-]`,
    "i",
  );
  const firstContent = lines.findIndex((l) => l.trim() !== "");
  for (let i = firstContent + 1; i < lines.length; i++) {
    if ((lines[i - 1] ?? "").trim() === "" && opening.test(lines[i] ?? "")) return i;
  }
  return lines.length;
}

/**
 * The line after which an earlier message signed by another person ends, when the sender's own
 * text below it ends with the sender's name; 0 when there is none. A closing line, then a short
 * name that is not the sender's, then a blank line and more text.
 */
function signedByAnotherAbove(lines: readonly string[], senderName: string): number {
  const words = senderName.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const own = words[0] ?? "";
  if (own.length < 2) return 0;
  const written = lines.map((l) => l.trim()).filter((l) => l !== "");
  const lastLine = (written.at(-1) ?? "").toLowerCase().replace(/^[-–—~]\s*/, "");
  if (lastLine !== own && lastLine !== words.join(" ")) return 0;
  for (let i = 1; i + 2 < lines.length; i++) {
    const name = (lines[i] ?? "").trim();
    if (!CLOSING.test((lines[i - 1] ?? "").trim())) continue;
    if (!/^[A-Z][a-z]+( [A-Z][a-z]+)?$/.test(name)) continue;
    const first = name.split(" ")[0]?.toLowerCase() ?? "";
    if (first === own || own.startsWith(first) || first.startsWith(own)) continue;
    if ((lines[i + 1] ?? "").trim() !== "") continue;
    return i + 1;
  }
  return 0;
}

const SIGN_OFF_WORD = rules.regex("sign-off-word");

/**
 * Three written lines or more after line `i`, in paragraphs of which at most a third speak (I, we,
 * you), or opened by another's salutation.
 */
function pasteAfter(lines: readonly string[], i: number): boolean {
  const rest = lines.slice(i + 1);
  const written = rest.filter((l) => l.trim() !== "" && !/^\s*\[[^\]]{1,30}\]\s*$/.test(l));
  if (written.length < 3) return false;
  // Another's letter, opened by its own salutation ("[Original]" / "Madame, Monsieur,").
  if (
    SALUTATION.test((written[0] ?? "").trim()) ||
    /^\s*(madame?|monsieur|sir)\b[^.!?]{0,30},\s*$/i.test(written[0] ?? "")
  )
    return true;
  const paragraphs = rest
    .join("\n")
    .split(/\n\s*\n/)
    .filter((p) => p.trim() !== "");
  return paragraphs.filter(speaks).length * 3 <= paragraphs.length;
}

/**
 * Where the sender signs off with their own name on a line of its own ("Imogen", "- Imogen Hale"):
 * the lines after it are their signature (company, tagline, links), not what they say.
 */
function signOffByName(lines: readonly string[], senderName: string, onlyAbovePaste = false): number {
  const words = senderName
    .replace(/["']/g, "")
    .trim()
    .split(/\s+/)
    .filter((w) => /^[A-Za-z][\w-]*$/.test(w));
  if (words.length === 0) return lines.length;
  const first = words[0]?.toLowerCase() ?? "";
  const full = words.join(" ").toLowerCase();
  const firstContent = lines.findIndex((l) => l.trim() !== "");
  // A sign-off is looked for near the end, or anywhere when the writer says something of another's
  // follows ("I've pasted the whole section", "see below"): the paste comes after their name.
  // A sign-off further up counts too when what follows it speaks to no one: a report, an invoice
  // or an article the sender pasted under their name.
  let from = Math.max(firstContent + 1, lines.length - 12);
  const announced = lines.findIndex((l, i) => i >= firstContent && i < from && ANNOUNCES_PASTE.test(l));
  if (announced !== -1) from = announced + 1;
  for (let i = firstContent + 1; i < lines.length; i++) {
    const line = (lines[i] ?? "")
      .trim()
      .replace(/^[-–—~]\s*/, "")
      .replace(/(?<!\s)\s+x{1,3}$/, "")
      .replace(SIGN_OFF_WORD, "")
      .replace(/^([a-z])\.$/i, "$1")
      .toLowerCase();
    // "Cal" for Callum: a short form of the first name, three letters or more.
    const nickname = line.length >= 3 && /^[a-z]+$/.test(line) && first.startsWith(line);
    // A name, the full name, or the initial alone ("C"); or the full name with a title after a bar
    // or a comma ("Liam Carter | Senior Negotiator").
    const titled = line.startsWith(full) && /^\s*[|,–—]\s*[a-z]/.test(line.slice(full.length));
    // "Gary" then "Gary Fenwick | Account Manager": the card under the name shows it is the sign-off
    // even with no blank line before it.
    const cardFollows = full.includes(" ") && (lines[i + 1] ?? "").trim().toLowerCase().startsWith(full);
    // (A name signed over the earlier message, "...see you Thursday.\nBrian\n\nMorning Brian,",
    // goes with that message: addressesSender.)
    if (
      (line === first || line === full || line === first[0] || titled || nickname) &&
      ((lines[i - 1] ?? "").trim() === "" ||
        (line === first && cardFollows) ||
        (i < from && CLOSING.test((lines[i - 1] ?? "").trim()))) &&
      // Checked last: reading the rest of the mail for each line would cost a pass per line.
      (!(i < from || onlyAbovePaste) || pasteAfter(lines, i))
    )
      return i;
  }
  return lines.length;
}

/**
 * Cuts quoted replies, signatures and footers from plain text; the sender's name and address find
 * a sign-off by name and the earlier message addressed to them.
 */
export function cleanBody(raw: string, senderName = "", senderAddress = ""): CleanedBody {
  const lines = raw.replace(/\r\n?/g, "\n").split("\n");
  let end = lines.length;
  let hadQuotedReply = false;
  let hadSignature = false;
  let hadFooter = false;
  const kept: string[] = [];
  for (let i = 0; i < end; i++) {
    const line = lines[i] ?? "";
    const trimmed = line.trim();
    const header = isQuoteHeader(lines, i);
    // "Answers below in capitals": the writer answers between the quoted lines, so what is not
    // quoted under the header is theirs. The header block is skipped, and the "> " lines below.
    if (header && inlineAnswers(kept, lines, i)) {
      hadQuotedReply = true;
      while (i + 1 < end && /^(From|Sent|Date|To|Cc|Subject):/i.test((lines[i + 1] ?? "").trim())) i++;
      continue;
    }
    if (header && kept.some((l) => l.trim() !== "")) {
      hadQuotedReply = true;
      end = i;
      break;
    }
    // The attribution over a quoted block ("Am 31.01.2025 um 14:22 schrieb Nadia:" then "> ...")
    // goes with the block, even above the sender's own text in a bottom-posted reply.
    if (header && /^\s*>/.test(nextWritten(lines, i))) {
      hadQuotedReply = true;
      continue;
    }
    if (/^\s*(>|\|)/.test(line)) {
      hadQuotedReply = true;
      continue;
    }
    if (SIGNATURE_START.some((p) => p.test(trimmed))) {
      hadSignature = true;
      end = i;
      break;
    }
    kept.push(line);
  }
  // A later paragraph that opens by addressing the sender ("Hi Sarah, I've found...", "Hattie,
  // I'm thinking...") was written to them: the earlier message under a reply, quoted unmarked.
  // An earlier message signed by someone else ("Thanks,\nTheo") above the sender's reply that is
  // signed by the sender: the earlier message is quoted, unmarked, under a bottom-posted reply.
  const otherSigned = signedByAnotherAbove(kept, senderName);
  if (otherSigned > 0) {
    hadQuotedReply = true;
    kept.splice(0, otherSigned);
  }
  const addressed = addressesSender(kept, senderName, senderAddress);
  if (addressed < kept.length) {
    hadQuotedReply = true;
    kept.length = addressed;
    // The sender's name signed right above it ("...see you then.\nMaggie") is their sign-off.
    while (kept.length > 0 && (kept.at(-1) ?? "").trim() === "") kept.pop();
    const last = (kept.at(-1) ?? "")
      .trim()
      .replace(/(?<!\s)\s+x{1,3}$/, "")
      .toLowerCase();
    const own = senderName.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
    if (kept.length > 1 && own.length >= 2 && (last === own || last === senderName.trim().toLowerCase()))
      kept.pop();
  }
  // The salutation line opens the mail: drop it (only the first non-empty line).
  const first = kept.findIndex((l) => l.trim() !== "");
  if (
    first !== -1 &&
    SALUTATION.test((kept[first] ?? "").trim()) &&
    kept.slice(first + 1).some((l) => l.trim())
  )
    kept.splice(first, 1);
  // A paragraph that is mostly pasted code, configuration or machine output goes whole: its prose
  // lines ("Import aborted: 18,204 of 36,551") belong to the paste.
  // A sign-off above a paste ("Cal" over a forum post) is found before the paste is thinned out.
  const abovePaste = signOffByName(kept, senderName, true);
  if (abovePaste < kept.length) {
    hadSignature = true;
    kept.length = abovePaste;
  }
  dropPastedParagraphs(kept);
  // Boilerplate paragraphs, pasted machine lines and run-on lines are not what the sender says.
  // Compacted in place: a splice per dropped line was quadratic on thousands of data rows.
  let keptCount = 0;
  for (const line of kept) {
    if (BOILERPLATE.test(line) || MACHINE_LINE.test(line) || DATA_ROW.test(line.trim()) || runOn(line))
      hadFooter = true;
    else kept[keptCount++] = line;
  }
  kept.length = keptCount;
  // A closing ("Best regards,") followed by at most 8 written lines (name, title, links, notices;
  // blank lines between them do not count) starts the signature block, when the line after it is
  // short, as a name is: "Thanks!" followed by a paragraph was no sign-off.
  let written = 0;
  let closing = -1;
  let next = "";
  for (let i = kept.length - 1; i >= 0 && written <= 8; i--) {
    const line = (kept[i] ?? "").trim();
    if (CLOSING.test(line) && next.length <= 40) closing = i;
    if (line !== "") {
      written++;
      next = line;
    }
  }
  if (closing > 0) {
    hadSignature = true;
    kept.length = closing;
  }
  // After a sign-off by name, the block before it may be a contact card the sender passes on.
  const signOff = signOffByName(kept, senderName);
  if (signOff < kept.length) {
    hadSignature = true;
    kept.length = signOff;
  }
  const signature = signatureBlock(kept);
  if (signature < kept.length) {
    hadSignature = true;
    kept.length = signature;
  }
  // Footers: drop footer lines in the last third (list footers, legal text, unsubscribe blurbs).
  const footerFrom = Math.floor(kept.length * 0.6);
  const body: string[] = [];
  for (let i = 0; i < kept.length; i++) {
    const line = kept[i] ?? "";
    if (i >= footerFrom && FOOTER_LINE.test(line)) {
      hadFooter = true;
      continue;
    }
    body.push(line);
  }
  const text = body
    .join("\n")
    .replace(/[ \t]+/g, " ")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { text, hadQuotedReply, hadSignature, hadFooter };
}

/** Body text to analyse: prefers the plain part, else the HTML converted, else the snippet. */
export function bodyToText(bodyText: string | null, bodyHtml: string | null, snippet = ""): string {
  if (bodyText && bodyText.trim().length > 0) return bodyText;
  // Past 150k characters of HTML there is no content worth its conversion cost.
  if (bodyHtml && bodyHtml.trim().length > 0) return htmlToText(bodyHtml.slice(0, 150_000));
  return snippet;
}
