/**
 * Patterns the ReDoS check lets through, each with why its input stays short. Keyed by file and
 * exact source, so editing the pattern asks for a new look. Keep this short: fix rather than list.
 */
export interface Allowed {
  file: string;
  source: string;
  why: string;
}

export const ALLOWED: readonly Allowed[] = [];

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
