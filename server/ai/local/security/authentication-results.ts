import type { AuthResult } from "../../../../contract/ai.ts";
import { AUTH_RESULTS } from "../../../../contract/ai.ts";

/**
 * SPF/DKIM/DMARC verdicts from Authentication-Results (RFC 8601). Several headers may be joined
 * with newlines; the receiving server's own header comes first, so the first verdict per method
 * wins, except that any DKIM pass counts (one valid signature is enough).
 */
export interface AuthenticationVerdicts {
  spf: AuthResult;
  dkim: AuthResult;
  dmarc: AuthResult;
  /** The DMARC policy the sender published (p=reject/quarantine/none), when reported. */
  dmarcPolicy: string | null;
  /** header.from / header.d as reported, lower-cased. */
  headerFrom: string | null;
}

const KNOWN = new Set<string>(AUTH_RESULTS);

function asResult(value: string | undefined): AuthResult {
  const lower = (value ?? "").toLowerCase();
  if (lower === "hardfail") return "fail";
  return KNOWN.has(lower) ? (lower as AuthResult) : "unknown";
}

export function parseAuthenticationResults(header: string | null | undefined): AuthenticationVerdicts {
  const verdicts: AuthenticationVerdicts = {
    spf: "none",
    dkim: "none",
    dmarc: "none",
    dmarcPolicy: null,
    headerFrom: null,
  };
  if (!header) return verdicts;
  // Comments in parentheses can contain "=" and ";" and would confuse the split.
  const text = header.slice(0, 8000).replace(/\([^()]*\)/g, " ");
  const seen = new Set<string>();
  for (const match of text.matchAll(/\b(spf|dkim|dmarc)\s*=\s*([a-z]+)([^;\n]*)/gi)) {
    const method = (match[1] ?? "").toLowerCase() as "spf" | "dkim" | "dmarc";
    const result = asResult(match[2]);
    const rest = match[3] ?? "";
    if (method === "dkim" && result === "pass") verdicts.dkim = "pass";
    else if (!seen.has(method)) verdicts[method] = result;
    seen.add(method);
    if (method === "dmarc") {
      const policy = /\bp=([a-z]+)/i.exec(header.slice(match.index ?? 0, (match.index ?? 0) + 300));
      if (policy?.[1] && verdicts.dmarcPolicy === null) verdicts.dmarcPolicy = policy[1].toLowerCase();
      const from = /header\.from=([^\s;]+)/i.exec(rest);
      if (from?.[1] && verdicts.headerFrom === null) verdicts.headerFrom = from[1].toLowerCase();
    }
  }
  return verdicts;
}
