import type { SecurityReason } from "../../../../contract/ai.ts";
import { ruleTable } from "../rules/rule-table.ts";
import { type SenderTrust, trustedSender } from "./sender-trust.ts";

const rules = ruleTable("security");

/**
 * Lures that carry no bad link in the text at all, so the link checks cannot see them:
 *   QR-code lures     the sign-in page hides in an image the reader scans with a phone (outside
 *                     any mail filter), with an account, document or payment pretext
 *   callback scams    a fake renewal or order with a phone number to "cancel": the fraud happens
 *                     on the call (remote access, card details)
 */

const QR = rules.regex("qr");
const ACCESS_PRETEXT = rules.regex("access-pretext");

const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{3}\)|\b\d{3})[\s.-]?\d{3}[\s.-]?\d{4}\b|\+\d{2}[\s\d]{8,14}\d/;
const CHARGE = rules.regex("charge");
const AMOUNT = /[$€£]\s?\d[\d,]*(?:\.\d{2})?|\b\d[\d,]*\.\d{2}\s?(?:usd|eur|gbp)\b/i;
const DISPUTE = rules.regex("dispute");
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
        "The message asks you to scan a QR code to sign in, re-register or open a document. A code sends your " +
        "phone to a page no mail filter has checked; open the service from its usual address instead.",
    });
  }

  if (CHARGE.test(sample) && AMOUNT.test(sample) && DISPUTE.test(sample)) {
    const phone = PHONE.exec(sample);
    if (phone && CALL.test(sample.slice(Math.max(0, (phone.index ?? 0) - 120), (phone.index ?? 0) + 40))) {
      reasons.push({
        code: "callback_scam",
        severity: trust.contact || trust.ownDomain ? "warning" : "danger",
        message:
          `The message claims a charge or order and asks you to call ${phone[0].trim()} to cancel it. Fake ` +
          "renewals and orders are a common phone scam: check the charge in your account instead of calling.",
      });
    }
  }
  return reasons;
}
