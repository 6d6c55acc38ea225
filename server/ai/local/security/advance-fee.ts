import type { SecurityReason } from "../../../../contract/ai.ts";
import { ruleTable } from "../rules/rule-table.ts";

const rules = ruleTable("advance-fee");

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
  ["sum", rules.regex("sum-1")],
  ["sum", rules.regex("sum-2")],
  ["sum", rules.regex("sum-3")],
  ["sum", rules.regex("sum-4")],
  ["transfer", rules.regex("transfer-1")],
  ["transfer", rules.regex("transfer-2")],
  ["transfer", rules.regex("transfer-3")],
  ["transfer", rules.regex("transfer-4")],
  ["share", rules.regex("share-1")],
  ["share", rules.regex("share-2")],
  ["share", rules.regex("share-3")],
  ["inheritance", rules.regex("inheritance-1")],
  ["source", rules.regex("source-1")],
  ["secrecy", rules.regex("secrecy-1")],
  ["stranger", rules.regex("stranger-1")],
  ["stranger", rules.regex("stranger-2")],
  ["contact", rules.regex("contact-1")],
  ["contact", rules.regex("contact-2")],
];

const OFFICIAL_TITLE = rules.regex("official-title");

const LOTTERY_WIN = rules.regex("lottery-win");
const LOTTERY_GAME = rules.regex("lottery-game");
const LOTTERY_CLAIM = rules.regex("lottery-claim");

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
