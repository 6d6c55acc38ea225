/** Plans and prices shown on /pricing (spec sections 1 and 9). Prices are in US dollars. */

export type BillingPeriod = "monthly" | "annual";

export const TRIAL_DAYS = 14;
export const CURRENCY_SYMBOL = "$";

interface PaidPlan {
  id: "personal" | "professional";
  name: string;
  tagline: string;
  monthly: number;
  annual: number;
  /** The annual saving as printed on the page; a unit test checks it against the prices. */
  annualDiscountLabel: string;
  /** Professional is billed per connected work email address. */
  unit: string;
  features: string[];
  highlighted: boolean;
}

interface CustomPlan {
  id: "enterprise";
  name: string;
  tagline: string;
  features: string[];
}

export const PERSONAL_PLAN: PaidPlan = {
  id: "personal",
  name: "Personal",
  tagline: "For your home inboxes and side projects.",
  monthly: 2.99,
  annual: 17.94,
  annualDiscountLabel: "-50%",
  unit: "",
  features: [
    "Unified inbox for your Gmail and Outlook accounts",
    "AI analysis of every email: sentiment, urgency and summary",
    "Suggested reply drafts and help improving your writing",
    "Swipe-style Inbox Zero mode, achievements and leaderboard",
    "Calendar and privacy controls",
  ],
  highlighted: false,
};

export const PROFESSIONAL_PLAN: PaidPlan = {
  id: "professional",
  name: "Professional",
  tagline: "For people whose inbox is their job.",
  monthly: 10,
  annual: 96,
  annualDiscountLabel: "-20%",
  unit: "work email",
  features: [
    "Everything in Personal",
    "A personal AI agent that learns your email patterns",
    "Agent memory that stays with you across job changes",
    "Security scanning and phishing detection",
    "Smart buckets and bulk actions for busy work inboxes",
  ],
  highlighted: true,
};

export const ENTERPRISE_PLAN: CustomPlan = {
  id: "enterprise",
  name: "Enterprise",
  tagline: "For teams that need volume pricing and a partner.",
  features: [
    "Everything in Professional",
    "Volume pricing for your whole team",
    "Guided onboarding and rollout help",
    "Extended data retention options",
    "A named contact for questions and reviews",
  ],
};

export const PAID_PLANS = [PERSONAL_PLAN, PROFESSIONAL_PLAN] as const;
export type { PaidPlan };

/** "$2.99", "$10", "$17.94": cents only when there are any. */
export function formatPrice(amount: number): string {
  const fixed = Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
  return `${CURRENCY_SYMBOL}${fixed}`;
}

/** Saving of annual billing against twelve monthly payments, in whole percent. */
export function annualDiscountPercent(plan: Pick<PaidPlan, "monthly" | "annual">): number {
  return Math.round((1 - plan.annual / (plan.monthly * 12)) * 100);
}
