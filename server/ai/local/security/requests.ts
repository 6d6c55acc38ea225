import type { SecurityReason } from "../../../../contract/ai.ts";
import { ruleTable } from "../rules/rule-table.ts";
import { type SenderTrust, trustedSender } from "./sender-trust.ts";

const rules = ruleTable("security");

/**
 * Requests that only a fraudster makes by email: buy gift cards and send the codes, change where
 * a salary or a supplier's payment goes, approve a sign-in prompt, pass on a one-time code. Each
 * is matched as a REQUEST (an imperative or "I need you to"), not as a topic: a colleague warning
 * about gift-card scams, HR telling staff to update their own bank details in the HR system, or a
 * service saying "never share this code" names the same things and is not flagged.
 */

// "never ask you to buy gift cards", "don't share this code", "only approve prompts you started".
const NEGATION = /\b(never|not|don'?t|do not|won'?t|will not|only|no one|nobody)\b[^.!?\n]{0,40}$/i;

// Global copies of the patterns, compiled once: matchAll needs the g flag.
const GLOBAL = new WeakMap<RegExp, RegExp>();

function requested(text: string, pattern: RegExp): RegExpExecArray | null {
  // Most mail never names the thing at all: one cheap test spares the scan for negations.
  if (!pattern.test(text)) return null;
  let global = GLOBAL.get(pattern);
  if (!global) {
    global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
    GLOBAL.set(pattern, global);
  }
  for (const match of text.matchAll(global)) {
    const before = text.slice(Math.max(0, (match.index ?? 0) - 60), match.index ?? 0);
    if (!NEGATION.test(before)) return match as RegExpExecArray;
  }
  return null;
}

// A gift card of any kind: the cards fraudsters ask for by name.
const GIFT_CARD = rules.regex("gift-card").source;
// "I need you to buy some gift cards for a client", "please pick up 5 Apple cards on your way".
const GIFT_CARD_ASK = new RegExp(
  String.raw`\b(?:need|want|like)\s+you\s+to\s+(?:\w+\s+){0,3}(?:buy|purchase|get|pick\s+up|order)\b[^.!?]{0,60}${GIFT_CARD}|` +
    String.raw`\b(?:please\s+)?(?:buy|purchase|get|pick\s+up)\s+(?:me\s+)?(?:some\s+|\d+\s+|a\s+few\s+)?[^.!?]{0,40}${GIFT_CARD}`,
  "i",
);
const CARD_CODES = rules.regex("card-codes");

// The two families of security.rules as one pattern: `requested` scans its matches with matchAll.
const PAY_CHANGE = new RegExp(
  `${rules.regex("pay-change-details").source}|${rules.regex("pay-change-bank").source}`,
  "i",
);
const PAY_TOPIC = rules.regex("pay-topic");

const APPROVE_PROMPT = rules.regex("approve-prompt");
const SHARE_CODE = rules.regex("share-code");

export function checkRiskyRequests(
  subject: string,
  text: string,
  trust: SenderTrust,
  authKnown: boolean,
): SecurityReason[] {
  const sample = `${subject}\n${text.slice(0, 6000)}`;
  const reasons: SecurityReason[] = [];
  const trusted = trustedSender(trust, authKnown);
  const who = trust.borrowsColleagueName
    ? ` The sender uses the name of ${trust.borrowsColleagueName} but does not write from their address.`
    : trust.freeMail
      ? " It comes from a free-mail address."
      : "";

  const gift = requested(sample, GIFT_CARD_ASK);
  if (gift) {
    const codes = CARD_CODES.test(sample);
    reasons.push({
      code: "gift_card_request",
      severity: trusted && !codes ? "warning" : "danger",
      message: `The message asks you to buy gift cards${codes ? " and send their codes" : ""}, a common scam: gift-card codes are cash that cannot be traced or refunded.${who}`,
    });
  }

  const pay = requested(sample, PAY_CHANGE);
  if (pay && PAY_TOPIC.test(sample)) {
    reasons.push({
      code: "payment_change_request",
      severity: trusted ? "info" : "danger",
      message: `The message asks you to change where a salary or payment is sent. Confirm any change of bank details by phone on a number you already have.${who}`,
    });
  }

  const prompt = requested(sample, APPROVE_PROMPT);
  const code = requested(sample, SHARE_CODE);
  if (prompt || code) {
    reasons.push({
      code: "mfa_approval_request",
      severity: trusted ? "warning" : "danger",
      message: prompt
        ? "The message asks you to approve a sign-in prompt you did not start. Approving it lets someone else into your account; no real IT team asks for this."
        : "The message asks you to pass on a one-time sign-in code. Whoever has the code can sign in as you.",
    });
  }
  return reasons;
}
