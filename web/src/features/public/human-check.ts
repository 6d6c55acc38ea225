/** The contact-sales form's "What is A + B?" check (spec section 5). Plain logic, no DOM. */

export const HUMAN_CHECK_MIN = 1;
export const HUMAN_CHECK_MAX = 10;

export const HUMAN_CHECK_FAILED_MESSAGE = "Please solve the math problem correctly to verify you are human.";
export const CONTACT_SALES_THANKS_MESSAGE = "Thank you! We'll get back to you within 24 hours.";

export interface HumanCheck {
  a: number;
  b: number;
}

/** A uniform integer in [min, max]; `random` returns a number in [0, 1) like Math.random. */
export function randomInt(min: number, max: number, random: () => number = Math.random): number {
  return min + Math.floor(random() * (max - min + 1));
}

/**
 * A fresh question with both operands in 1..10. When `previous` is given the new question differs
 * from it, so pressing New always visibly changes the question.
 */
export function newHumanCheck(previous?: HumanCheck, random: () => number = Math.random): HumanCheck {
  for (let attempt = 0; attempt < 20; attempt++) {
    const next = {
      a: randomInt(HUMAN_CHECK_MIN, HUMAN_CHECK_MAX, random),
      b: randomInt(HUMAN_CHECK_MIN, HUMAN_CHECK_MAX, random),
    };
    if (!previous || next.a !== previous.a || next.b !== previous.b) return next;
  }
  // A stuck random source: step the first operand so the question still changes.
  const a = previous ? (previous.a % HUMAN_CHECK_MAX) + 1 : HUMAN_CHECK_MIN;
  return { a, b: previous?.b ?? HUMAN_CHECK_MIN };
}

export function humanCheckQuestion(check: HumanCheck): string {
  return `What is ${check.a} + ${check.b}?`;
}

/** True only for a whole-number answer (surrounding spaces allowed) equal to a + b. */
export function isHumanCheckAnswerCorrect(check: HumanCheck, answer: string): boolean {
  const trimmed = answer.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) return false;
  return Number(trimmed) === check.a + check.b;
}
