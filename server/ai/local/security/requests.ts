import type { SecurityReason } from "../../../../contract/ai.ts";
import { type SenderTrust, trustedSender } from "./sender-trust.ts";

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

const GIFT_CARD = String.raw`(?:gift\s?cards?|e-?gift|(?:itunes|apple|google\s?play|amazon|steam|ebay|vanilla|visa|target|walmart|sephora)\s+(?:gift\s+)?cards?)`;
const GIFT_CARD_ASK = new RegExp(
  String.raw`\b(?:need|want|like)\s+you\s+to\s+(?:\w+\s+){0,3}(?:buy|purchase|get|pick\s+up|order)\b[^.!?]{0,60}${GIFT_CARD}|\b(?:please\s+)?(?:buy|purchase|get|pick\s+up)\s+(?:me\s+)?(?:some\s+|\d+\s+|a\s+few\s+)?[^.!?]{0,40}${GIFT_CARD}`,
  "i",
);
const CARD_CODES =
  /\b(?:scratch|send|email|text|forward|share)\b[^.!?]{0,40}\b(?:codes?|card\s+numbers?|pins?|pictures?|photos?|images?)\b/i;

const PAY_CHANGE =
  /\b(?:update|change|switch|amend|modify)\s+(?:my|his|her|their|our|the|his\/her)\s+(?:direct\s+deposit|payroll|salary|pay(?:check)?|bank(?:ing)?|payment|remittance|account)(?:\s+(?:details|information|info|account|instructions|destination))?\b|\bchanged\s+(?:my\s+|our\s+)?banks?\b|\bmoved\s+to\s+a\s+new\s+bank\b|\b(?:deposited|paid)\s+into\s+(?:my|our)\s+new\s+account\b|\bsend\s+[^.!?]{0,40}\bto\s+the\s+new\s+account\b/i;
const PAY_TOPIC =
  /\b(?:direct\s+deposit|payroll|salary|paycheck|pay\s+date|wages|routing\s+number|account\s+number|bank\s+details|payment\s+details|wire|invoice)\b/i;

const APPROVE_PROMPT =
  /\b(?:approve|accept|allow|confirm|tap)\b[^.!?\n]{0,50}\b(?:sign-?in|log-?in|login|push|prompt|mfa|2fa|authenticator|verify\s+app|notification)s?\b|\btap\s+["']?(?:approve|yes|accept|allow)\b|\b(?:enter|type)\s+the\s+number\s+\d{1,3}\b|\b(?:sign-?in|log-?in|login|push|mfa|authenticator)\s+(?:requests?|prompts?|notifications?)\b[^?]{0,120}?\b(?:please\s+)?(?:approve|accept)\s+(?:them|it|each|every|all)\b/i;
const SHARE_CODE =
  /\b(?:reply|respond|send|forward|share|tell|give|provide)\b[^.!?\n]{0,40}\b(?:(?:verification|security|sign-?in|login|authentication|access|one-?time|\d-digit|sms|text)\s+code|passcode|otp|one-?time\s+(?:password|pin)|the\s+code\b[^.!?\n]{0,60}\b(?:identity|verif\w*|sign|account|confirm\w*))/i;

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
