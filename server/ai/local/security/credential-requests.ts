import type { SecurityReason } from "../../../../contract/ai.ts";

/**
 * Language that asks for credentials or payment details, or threatens the account to rush the
 * reader. Legitimate services rarely ask this by email, so it is a warning by itself and weighs
 * more together with a foreign link or a failing sender check (see scan.ts).
 */
const DEADLINE = "sets a short deadline";

const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /\b(verify|confirm|validate|re-?activate|restore|unlock|update)\s+(your|the)\s+(account|identity|login|credentials?|password|mailbox|email account)\b/i,
    "asks you to verify or confirm your account",
  ],
  [
    /\b(confirm|enter|provide|update|re-?enter|submit)\s+(your\s+)?(password|passcode|pin|social security( number)?|ssn|card (number|details)|credit card|bank(ing)? details|security questions?)\b/i,
    "asks for your password or payment details",
  ],
  [
    /\b(update|confirm|verify)\s+(your\s+)?(billing|payment)\s+(information|info|details|method)\b/i,
    "asks you to update billing or payment information",
  ],
  [
    /\byour\s+(account|mailbox|access|card)\s+(will|has been|have been|is|may be)\s+(be\s+)?(suspended|locked|disabled|closed|limited|restricted|terminated|deactivated|deleted|on hold)\b/i,
    "threatens that your account will be suspended",
  ],
  [
    /\b(unusual|suspicious|unauthori[sz]ed)\s+(sign-?in|login|log-?in|activity|access|transaction)s?\b/i,
    "claims unusual activity on your account",
  ],
  [
    /\b(failure to|if you (do not|don't|fail to))\s+(verify|confirm|respond|update|comply)\b/i,
    "threatens consequences if you do not act",
  ],
  [/\bwithin\s+(24|48|72|12)\s+hours\b/i, DEADLINE],
  [
    /\b(click|tap)\s+(here|below|the (link|button))\s+to\s+(verify|confirm|restore|unlock|re-?activate|login|log in|sign in|secure)\b/i,
    "asks you to click a link to sign in",
  ],
  [
    /\bmailbox\s+(is\s+)?(full|over\s?quota|storage)\b|\bquota\s+(exceeded|limit)\b/i,
    "claims your mailbox is full",
  ],
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
