import type { SecurityReason } from "../../../../contract/ai.ts";
import { ruleTable } from "../rules/rule-table.ts";

const rules = ruleTable("security");

/**
 * Language that asks for credentials or payment details, or threatens the account to rush the
 * reader. Legitimate services rarely ask this by email, so it is a warning by itself and weighs
 * more together with a foreign link or a failing sender check (see scan.ts).
 */
const DEADLINE = "sets a short deadline";

const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [rules.regex("verify-account"), "asks you to verify or confirm your account"],
  [rules.regex("give-password"), "asks for your password or payment details"],
  [rules.regex("update-billing"), "asks you to update billing or payment information"],
  [rules.regex("account-threat"), "threatens that your account will be suspended"],
  [rules.regex("unusual-activity"), "claims unusual activity on your account"],
  [rules.regex("failure-threat"), "threatens consequences if you do not act"],
  [rules.regex("short-deadline"), DEADLINE],
  [rules.regex("click-to-sign-in"), "asks you to click a link to sign in"],
  [rules.regex("mailbox-full"), "claims your mailbox is full"],
];

export interface CredentialFindings {
  reasons: SecurityReason[];
  /** Distinct pattern kinds matched. */
  count: number;
}

export function checkCredentialRequests(text: string): CredentialFindings {
  // The first 20k characters hold any real request; a bounded input keeps the regexes cheap.
  const sample = text.slice(0, 20_000);
  const matched: string[] = [];
  for (const [pattern, description] of PATTERNS) if (pattern.test(sample)) matched.push(description);
  // A short deadline alone is how real notices read too ("add the record within 48 hours"): it
  // rushes the reader only together with a request for credentials, payment or a sign-in.
  if (matched.length === 0 || (matched.length === 1 && matched[0] === DEADLINE))
    return { reasons: [], count: 0 };
  return {
    count: matched.length,
    reasons: [
      {
        code: "credential_request",
        severity: matched.length >= 2 ? "danger" : "warning",
        message: `The message ${matched.slice(0, 3).join(", ")}.`,
      },
    ],
  };
}
