import { analyse } from "scslre";

/**
 * Why a pattern can take super-linear time, one line a cause; empty when it cannot.
 * scslre reads the pattern (no fuzzing, so the same answer every run): "Trade" and "Self" are
 * backtracking between quantifiers (polynomial, or exponential when said), "Move" is the quadratic
 * cost of a search retried at every start position over a long run of one character.
 */
export function superLinearCauses(source: string, flags: string): string[] {
  return analyse({ source, flags }).reports.map((report) => {
    const kind =
      report.type === "Move" ? "quadratic search" : report.exponential ? "exponential" : "polynomial";
    return `${kind} (${report.type}) on repeated ${JSON.stringify(report.character.pick)}`;
  });
}
