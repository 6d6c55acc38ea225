import type { SecurityReason } from "../../../../contract/ai.ts";
import { type SenderTrust, trustedSender } from "./sender-trust.ts";

/**
 * Lures that carry no bad link in the text at all, so the link checks cannot see them:
 *   QR-code lures     the sign-in page hides in an image the reader scans with a phone (outside
 *                     any mail filter), with an account, document or payment pretext
 *   callback scams    a fake renewal or order with a phone number to "cancel": the fraud happens
 *                     on the call (remote access, card details)
 */

const QR =
  /\bqr[\s-]?codes?\b|\bscan\b[^.!?\n]{0,40}\b(?:the\s+)?(?:code|barcode)\b|\bscan\s+with\s+your\s+(?:smart)?phone\b/i;
// What a QR lure promises behind the code.
const ACCESS_PRETEXT =
  /\b(?:sign[\s-]?in|log[\s-]?in|login|password|credentials?|mfa|2fa|two[\s-]factor|multi[\s-]factor|authenticat\w*|re-?register|verify|validate|mailbox|session|account|document|file|payment|bonus|salary|payslip|pay\s+statement|shared|sign(?:ature)?|access|expire[sd]?)\b/i;

const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{3}\)|\b\d{3})[\s.-]?\d{3}[\s.-]?\d{4}\b|\+\d{2}[\s\d]{8,14}\d/;
const CHARGE =
  /\b(?:charged|renew(?:ed|al)|auto-?renew\w*|subscription|order(?:ed)?|purchase[sd]?|invoice|debited|transaction|payment|membership|license|licence)\b/i;
const AMOUNT = /[$€£]\s?\d[\d,]*(?:\.\d{2})?|\b\d[\d,]*\.\d{2}\s?(?:usd|eur|gbp)\b/i;
const DISPUTE =
  /\b(?:did\s*n[o']t|didn't|not)\s+(?:authori[sz]e|make|place|order|request|recogni[sz]e)\b|\bnot\s+you\b|\bwasn't\s+you\b|\b(?:cancel|refund|dispute|stop\s+the\s+payment|fraud\s+department)\b/i;
const CALL = /\b(?:call|contact|dial|phone|reach)\b/i;

export function checkLures(
  subject: string,
  text: string,
  html: string | null,
  attachmentNames: readonly string[],
  trust: SenderTrust,
  authKnown: boolean,
): SecurityReason[] {
  const reasons: SecurityReason[] = [];
  const sample = `${subject}\n${text.slice(0, 6000)}`;
  const trusted = trustedSender(trust, authKnown);

  if (QR.test(sample) && ACCESS_PRETEXT.test(sample) && !trusted) {
    // The code must come with the mail (an image in it or attached) for the lure to work.
    const image =
      /<img\b/i.test(html ?? "") ||
      attachmentNames.some((n) => /\.(png|jpe?g|gif|bmp|webp|svg|pdf|docx?)$/i.test(n));
    reasons.push({
      code: "qr_code_lure",
      severity: image ? "danger" : "warning",
      message:
        "The message asks you to scan a QR code to sign in, re-register or open a document. A code sends your phone to a page no mail filter has checked; open the service from its usual address instead.",
    });
  }

  if (CHARGE.test(sample) && AMOUNT.test(sample) && DISPUTE.test(sample)) {
    const phone = PHONE.exec(sample);
    if (phone && CALL.test(sample.slice(Math.max(0, (phone.index ?? 0) - 120), (phone.index ?? 0) + 40))) {
      reasons.push({
        code: "callback_scam",
        severity: trust.contact || trust.ownDomain ? "warning" : "danger",
        message: `The message claims a charge or order and asks you to call ${phone[0].trim()} to cancel it. Fake renewals and orders are a common phone scam: check the charge in your account instead of calling.`,
      });
    }
  }
  return reasons;
}
