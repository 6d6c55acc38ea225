import type { SecurityReason } from "../../../../contract/ai.ts";

/**
 * Advance-fee ("419") and lottery fraud. No single phrase gives these letters away (a bank notice
 * names a transfer, a realtor names millions, a disclaimer says "strictly confidential"), but the
 * letters combine the same moves: a stranger, a sum of millions, help needed to move it, a share as
 * reward, a dead owner or official source, secrecy, and a request for private contact or bank
 * details. Each move is one cue family; the verdict rests on how many families appear together.
 */

type Cue =
  | "sum"
  | "transfer"
  | "share"
  | "inheritance"
  | "source"
  | "secrecy"
  | "stranger"
  | "contact"
  | "replyElsewhere"
  | "officialOnFreeMail";

/** What each cue family says about the message, in the order they are worth showing. */
const CUE_TEXT: Readonly<Record<Cue, string>> = {
  sum: "names a sum of millions",
  transfer: "wants your help moving the money",
  share: "offers you a share of it",
  inheritance: "speaks of a dead owner or unclaimed funds",
  source: "cites an official-sounding origin for it",
  contact: "asks for bank details or private phone and fax numbers",
  secrecy: "asks for secrecy",
  officialOnFreeMail: "claims an official title but writes from a free-mail address",
  replyElsewhere: "sends replies to a different free-mail address",
  stranger: "comes from a stranger",
};
const CUE_ORDER = Object.keys(CUE_TEXT) as Cue[];

// Matched on a bounded sample; every repetition is bounded, so no pattern can backtrack badly.
const PATTERNS: ReadonlyArray<readonly [Cue, RegExp]> = [
  // US$31,000,000.00 · $ 8.000.000 · £2,500,000
  ["sum", /(?:us\s?\$|usd\s?\$?|u\.s\.\s?\$|\$|£|€|\beur(?:o|os)?\b|\bgbp\b)\s?\d{1,3}(?:[,.]\d{3}){2,}/i],
  // US$ 22.5 M · $80 million · USD 14.5m
  [
    "sum",
    /(?:us\s?\$|usd\s?\$?|u\.s\.\s?\$|\$|£|€|\beur(?:o|os)?\b|\bgbp\b)\s?\d{1,4}(?:[.,]\d{1,3})?\s?(?:m\b|mil(?:l?ion)?s?\b|billion)/i,
  ],
  // Thirty One Million United States Dollars · 36 million US dollars · 25,000,000.00 USD
  [
    "sum",
    /\b(?:million|billion)\s+(?:united\s+states\s+|u\.?\s?s\.?\s+|american\s+)?(?:dollars|usd|pounds(?:\s+sterling)?|euros?)\b/i,
  ],
  ["sum", /\b\d{1,3}(?:,\d{3}){2,}(?:\.\d\d)?\s?(?:usd|us\s?dollars|dollars|euros?|pounds)\b/i],
  [
    "transfer",
    /\b(?:transfer\w*|mov(?:e|ing)|remit\w*|receiv(?:e|ing)|lodg(?:e|ing)|repatriat\w*|channel\w*|claim(?:ing)?|secur(?:e|ing)|retriev(?:e|ing)|release)\s+(?:of\s+)?(?:the|this|these|our|my|his|her|said)\s+(?:\w+\s+)?(?:funds?|money|sum|amount|consignment|inheritance)\b/i,
  ],
  ["transfer", /\bforeign\s+(?:partner|account|company|firm|individual|beneficiary)\b/i],
  [
    "transfer",
    /\b(?:into|through)\s+(?:your|a\s+(?:foreign|reliable)|an?\s+(?:offshore|overseas))\s+(?:\w+\s+){0,2}account\b/i,
  ],
  // "provide us with a good company account", "the use of your account", "as the beneficiary of the funds"
  [
    "transfer",
    /\b(?:provid|nominat|furnish)\w*\s+(?:us\s+with\s+)?(?:a|an|your)\s+(?:\w+\s+){0,2}(?:bank\s+)?account\b|\buse\s+(?:of\s+)?your\s+(?:\w+\s+)?(?:bank\s+)?account\b|\b(?:as|the)\s+(?:the\s+)?(?:foreign\s+|new\s+|original\s+)?beneficiary\s+(?:of|to)\s+(?:the|this|these|our)\s+(?:funds?|money|sum|contract|deposit|inheritance)\b/i,
  ],
  [
    "share",
    /\b\d{1,2}(?:\.\d)?\s?(?:%|per\s?cent)\)?\s*(?:of\s+(?:the\s+|this\s+)?(?:total\s+)?(?:sum|money|funds?|amount|total)|(?:will\s+be\s+|shall\s+be\s+|goes\s+)?(?:for|to)\s+(?:you|your)\b)|\b(?:commission|compensation|share)\s+of\s+\d{1,2}\s?(?:%|per\s?cent)|\bentitled\s+to\s+(?:\w+\s+){0,2}\(?\d{1,2}\s?(?:%|per\s?cent)/i,
  ],
  [
    "share",
    /\b(?:percentage|share|commission|compensation|remuneration)\b.{0,60}\b(?:for|of)\s+(?:your|the)\s+(?:assistance|help|co-?operation|role|efforts?|involvement)\b/i,
  ],
  [
    "share",
    /\b(?:negotiate|charge)\b.{0,50}\bpercentage\b|\bsharing\s+ratio\b|\b(?:give|offer|pay)\w*\s+you\s+(?:\w+\s+){0,3}\(?\d{1,2}\s?(?:%|per\s?cent)/i,
  ],
  [
    "inheritance",
    /\bnext[\s-]+of[\s-]+kin\b|\bheir\s+to\b|\b(?:deceased|late)\s+(?:father|husband|mother|wife|brother|client|customer|owner|depositor|president|head\s+of\s+state|general|uncle)\b|\b(?:abandoned|unclaimed|dormant)\s+(?:sum|funds?|money|account|deposit)\b|\b(?:death|demise|passing)\s+of\s+(?:my|our|his|her|the)\s+(?:late\s+)?(?:father|husband|client|customer|boss)\b|\bthe\s+late\s+(?:mr|mrs|dr|engr|chief|alhaji|sir|general|president)\b|\bdied\s+(?:intestate|without\s+(?:a\s+will|any\s+(?:heirs?|next)))\b|\b(?:plane|air|auto(?:mobile)?|car|motor)\s+(?:crash|accident)\b/i,
  ],
  [
    "source",
    /\bsecurity\s+(?:company|firm|vault|outfit)\b|\bdiplomatic\s+(?:courier|package|bag|pouch|consignment|cover)\b|\bover[\s-]?(?:invoiced|inflated)\b|\btrunk\s+box(?:es)?\b|\bcrude\s+oil\s+sales?\b|\bministry\s+of\s+(?:finance|petroleum|mines|mineral|energy|works|power)\b|\bcontracts?\s+(?:review|awarding|verification)\s+(?:panel|committee)\b/i,
  ],
  [
    "secrecy",
    /\b(?:strict(?:est)?|utmost|absolute)\s+(?:confidence|confidentiality|secrecy)\b|\btop\s+secret\b|\bsecrecy\s+and\s+confidentiality\b|\b(?:strictly\s+)?confidential\s+(?:business|transaction|deal|operation|proposal)\b|\bhighly\s+confidential\b|\bkeep\s+(?:this|it|the)\s+(?:(?:matter|transaction|deal|business|proposal)\s+)?(?:(?:strictly|absolutely|very|highly)\s+)?(?:a\s+)?(?:top\s+)?(?:secret|confidential|private)\b/i,
  ],
  [
    "stranger",
    /\b(?:you|we)\s+(?:do\s+not|don'?t|did\s+not)\s+know\s+(?:me|each\s+other)\b|\b(?:have\s+not|never)\s+met\b|\b(?:though|although)\s+i\s+(?:do\s+not|don'?t)\s+know\s+you\b|\b(?:got|obtained|found|received)\s+your\s+(?:contact|e-?mail|address|particulars|name)\b|\bgave\s+(?:me\s+)?your\s+(?:particulars|contact)\b|\bsurprised?\s+to\s+receive\s+this\b|\b(?:seek|solicit)\w*\s+(?:for\s+)?your\s+(?:urgent\s+)?(?:assistance|help|partnership|co-?operation|confidence)\b|\bpermit\s+me\s+to\s+(?:introduce|inform)\b/i,
  ],
  [
    "stranger",
    /^[^\S\n\r\u2028\u2029]*(?:dear\s+(?:sir|friend|beloved)|attn?:?\s*(?:the\s+)?(?:president|c\.?e\.?o))/im,
  ],
  [
    "contact",
    /\b(?:private|direct|personal|confidential)\s+(?:tele)?(?:phone|fax|e-?mail\s+(?:address|box))(?:\s+(?:and|&)\s+fax)?\b|\b(?:tele)?phone\s+(?:and|&|\/)\s+fax\s+numbers?\b|\bbank(?:ing)?\s+(?:particulars|co-?ordinates)\b|\breply\s+(?:by|via|through)\s+(?:fax|my\s+private)\b/i,
  ],
  [
    "contact",
    /\b(?:send|furnish|provide|include|forward|give)\s+(?:(?:me|us)\s*)?(?:with\s+)?(?:your\s+)?(?:full\s+)?(?:bank(?:ing)?\s+(?:details|information|account\s+(?:number|details))|account\s+(?:number|details))\b/i,
  ],
];

/** Titles that lend a letter authority; from a free-mail mailbox they are a cue. */
const OFFICIAL_TITLE =
  /\b(?:barrister|attorney|solicitor|auditor|accountant|minister|ministry|government|central\s+bank|bank\s+(?:manager|officer|director)|(?:branch|bank)\s+(?:manager|officer)|director|diplomat|embassy|prince|princess|widow\s+of|(?:son|daughter|wife)\s+of\s+(?:the\s+)?late)\b/i;

const LOTTERY_WIN =
  /\byou(?:r\s+(?:e-?mail(?:\s+address)?|ticket|name|number))?\s+(?:have|has)\s+(?:been\s+)?(?:won|selected\s+as\s+(?:a|the|one\s+of\s+(?:the|our))\s+winners?|drawn)\b|\bwinning\s+(?:notification|number|ticket)\b|\blucky\s+(?:numbers?|winners?)\b|\bwon\s+(?:the\s+sum\s+of|a\s+(?:cash\s+)?prize|the\s+(?:lottery|jackpot|draw))\b|\bapproved\s+for\s+a\s+(?:lump\s+sum\s+)?pay(?:ment|\s?out)\b/i;
const LOTTERY_GAME =
  /\b(?:lottery|lotto|sweepstakes?|jackpot|prize\s+award|(?:international|online|e-?mail|computer)\s+(?:draw|ballot|promotion|programme|program))\b/i;
const LOTTERY_CLAIM =
  /\bclaims?\s+(?:agent|officer|department|form|processing|manager)\b|\b(?:processing|clearing|clearance|release|transfer|insurance|administrative|handling)\s+(?:fee|charge)s?\b|\bfiduciary\s+agent\b|\b(?:file|process)\w*\s+(?:for\s+)?your\s+claim\b|\bbatch\s+(?:no|number)\b|\bkeep\s+(?:your\s+)?(?:winning|prize|award)\w*(?:\s+\w+)?\s+(?:confidential|secret)\b/i;

/** Common free-mail providers: a reply-to moved from one of these to another mailbox is a cue. */
const FREE_MAIL = new Set([
  "yahoo.com",
  "yahoo.co.uk",
  "yahoo.fr",
  "hotmail.com",
  "msn.com",
  "live.com",
  "outlook.com",
  "gmail.com",
  "googlemail.com",
  "aol.com",
  "mail.com",
  "email.com",
  "usa.com",
  "post.com",
  "consultant.com",
  "writeme.com",
  "iname.com",
  "name.com",
  "techie.com",
  "lycos.com",
  "caramail.com",
  "rediffmail.com",
  "rediff.com",
  "maktoob.com",
  "netscape.net",
  "excite.com",
  "eudoramail.com",
  "mail.ru",
  "yandex.ru",
  "gmx.net",
  "gmx.com",
  "web.de",
  "zoho.com",
  "protonmail.com",
  "proton.me",
  "icloud.com",
  "africamail.com",
  "spinfinder.com",
  "emailaccount.com",
  "justice.com",
  "37.com",
  "arabia.com",
  "techemail.com",
  "indiatimes.com",
  "hushmail.com",
]);

export function isFreeMailDomain(domain: string): boolean {
  return FREE_MAIL.has(domain);
}

export interface FraudInput {
  subject: string;
  /** Plain text of the body; only a bounded prefix is read. */
  text: string;
  fromAddress: string;
  replyTo: ReadonlyArray<{ address: string }>;
}

const SUM_PATTERNS = PATTERNS.filter(([cue]) => cue === "sum").map(([, pattern]) => pattern);
// Every sum pattern needs "million", a 1,000,000-style figure or an "m" after a number; one cheap
// scan for those spares most mail the four currency patterns.
const MAYBE_SUM = /illion|\d[,.]\d{3}[,.]\d{3}|\d\s?m\b/i;
const QUOTED_LINE = /^[ \t]*>.*$/gm;

/**
 * Which cue families a message shows. Without a sum of millions there is no scheme to describe,
 * so the other families are only looked for when one is named: most mail pays for one cheap scan.
 */
export function advanceFeeCues(input: FraudInput): Set<Cue> {
  return cuesOf(input, `${input.subject}\n${input.text.slice(0, 12_000)}`);
}

function cuesOf(input: FraudInput, raw: string): Set<Cue> {
  const cues = new Set<Cue>();
  if (!MAYBE_SUM.test(raw) || !SUM_PATTERNS.some((pattern) => pattern.test(raw))) return cues;
  // Quoted lines ("> ...") are someone else's words, e.g. a list post discussing a scam letter.
  const sample = raw.replace(QUOTED_LINE, "");
  for (const [cue, pattern] of PATTERNS) if (!cues.has(cue) && pattern.test(sample)) cues.add(cue);
  if (!cues.has("sum")) return cues;
  const from = input.fromAddress.toLowerCase();
  const fromDomain = from.slice(from.lastIndexOf("@") + 1);
  if (FREE_MAIL.has(fromDomain) && OFFICIAL_TITLE.test(sample.slice(0, 4000))) cues.add("officialOnFreeMail");
  for (const reply of input.replyTo) {
    const address = reply.address.toLowerCase();
    const domain = address.slice(address.lastIndexOf("@") + 1);
    if (address && address !== from && FREE_MAIL.has(domain)) cues.add("replyElsewhere");
  }
  return cues;
}

export function checkAdvanceFee(input: FraudInput): SecurityReason[] {
  const raw = `${input.subject}\n${input.text.slice(0, 12_000)}`;
  const cues = cuesOf(input, raw);
  const reasons: SecurityReason[] = [];
  if (!cues.has("sum")) return reasons;
  // The core of the scheme: money of the kind a stranger cannot simply hand over, and a role for
  // the reader in getting it out. Without it, secrecy or a "Dear Sir" is just a letter.
  const core = cues.has("transfer") || cues.has("share") || cues.has("inheritance");
  if (core && cues.size >= 3) {
    const shown = CUE_ORDER.filter((c) => cues.has(c)).slice(0, 3);
    reasons.push({
      code: "advance_fee_fraud",
      severity: cues.size >= 4 ? "danger" : "warning",
      message: `The message reads like an advance-fee ("419") scam: it ${joinPhrases(shown.map((c) => CUE_TEXT[c]))}.`,
    });
  }
  // A lottery scam names the prize too, so it is only looked for behind the same sum check.
  if (LOTTERY_GAME.test(raw) && LOTTERY_WIN.test(raw) && LOTTERY_CLAIM.test(raw)) {
    reasons.push({
      code: "lottery_fraud",
      severity: "danger",
      message:
        "The message reads like a lottery scam: it says you have won a draw and asks you to contact a claims agent, pay a fee or keep the win secret to collect it.",
    });
  }
  return reasons;
}

function joinPhrases(phrases: readonly string[]): string {
  if (phrases.length <= 1) return phrases.join("");
  return `${phrases.slice(0, -1).join(", ")} and ${phrases[phrases.length - 1]}`;
}
