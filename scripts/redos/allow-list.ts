/**
 * Patterns the ReDoS check lets through. Keyed by file and exact source, so editing a pattern asks
 * for a new look; an entry whose pattern is gone fails the check, so the lists cannot go stale.
 */
export interface Listed {
  file: string;
  source: string;
  why: string;
}

/** Flagged by the detector, but linear on any input: why, for each. Keep this short. */
export const ALLOWED: readonly Listed[] = [
  {
    file: "server/ai/drafting/local-replies.ts",
    source: String.raw`\n\s*\n|\n(?=\s*[A-Z])`,
    why: "a start fails only when the white space after its newline holds no other newline (else the first branch matches), so failed scans never overlap: linear (0 ms on 30,000 newlines, spaces or both)",
  },
];

/**
 * Super-linear on a sender's text and NOT fixed yet (issue 34 left them open: no rewrite that
 * provably keeps every match was found in the time). Each is a debt, not a verdict: fix and
 * remove. Measured on this machine with a 30,000-character crafted line.
 */
export const NOT_YET_FIXED: readonly Listed[] = [];

/**
 * `new RegExp(...)` sites the collector does not reach, with why their pattern cannot backtrack
 * (checked by reading them, since no run shows the pattern).
 */
export const NOT_RUN: ReadonlyArray<{ file: string; why: string }> = [
  {
    file: "server/ai/local/urgency.ts",
    why: "`\\b<ordinal> of (<months>)\\b`: the ordinal passed /^\\d{1,2}(st|nd|rd|th)$/ first, and only wink's reading of a real mail makes one",
  },
];
