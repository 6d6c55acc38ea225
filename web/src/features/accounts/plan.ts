import type { SessionUser } from "../../../../contract/auth.ts";

const PLAN_NAMES: Record<SessionUser["plan"], string> = {
  trial: "Free trial",
  personal: "Personal",
  professional: "Professional",
  enterprise: "Enterprise",
};

export function planName(plan: SessionUser["plan"]): string {
  return PLAN_NAMES[plan];
}

/** "14 March 2026"-style date in the reader's locale; the raw value when it does not parse. */
export function formatDay(iso: string, locale?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(locale, { year: "numeric", month: "long", day: "numeric" });
}

/** Whole days left until the trial ends, never negative. */
export function trialDaysLeft(trialEndsAt: string, now: Date = new Date()): number {
  const end = new Date(trialEndsAt).getTime();
  if (Number.isNaN(end)) return 0;
  return Math.max(0, Math.ceil((end - now.getTime()) / 86_400_000));
}
