import { useState } from "react";
import { Link } from "wouter";
import { ContactSalesDialog } from "../features/public/contact-sales-dialog.tsx";
import { CheckIcon, MailIcon } from "../features/public/icons.tsx";
import {
  type BillingPeriod,
  ENTERPRISE_PLAN,
  formatPrice,
  PAID_PLANS,
  type PaidPlan,
  TRIAL_DAYS,
} from "../features/public/pricing-data.ts";
import { CONTACT_EMAIL } from "../features/public/site-footer.tsx";
import { SiteLayout } from "../features/public/site-layout.tsx";

const FAQ: { q: string; a: string }[] = [
  {
    q: "How does the free trial work?",
    a: `Every plan starts with a ${TRIAL_DAYS}-day free trial with full access. No credit card is required to sign up; you only choose a plan if you decide to stay.`,
  },
  {
    q: 'What does "per work email" mean?',
    a: "Professional is billed for each work email address you connect. Personal addresses are covered by the Personal plan.",
  },
  {
    q: "Which email providers does Mailwise support?",
    a: "Gmail and Outlook. You can connect several accounts of each and read them in one unified inbox.",
  },
  {
    q: "Do you store my email password?",
    a: "No. You sign in with Google or Microsoft through OAuth 2.0, so Mailwise never sees or stores your passwords. The access tokens we receive are encrypted at rest.",
  },
  {
    q: "Can I switch between monthly and annual billing?",
    a: "Yes. Annual billing saves 50% on Personal and 20% on Professional compared with paying monthly, and you can switch at your next renewal.",
  },
  {
    q: "What happens to my data if I cancel?",
    a: "You can export your data as a JSON file at any time. Account data is deleted within 30 days of termination.",
  },
  {
    q: "Do you sell my data?",
    a: "No. We do not sell your data, and you can also opt out of analytics and marketing from your privacy settings.",
  },
  {
    q: "How does Enterprise pricing work?",
    a: "Enterprise pricing depends on team size and needs. Send us a request through Contact Sales and we will get back to you within 24 hours.",
  },
];

function BillingToggle({
  period,
  onChange,
}: {
  period: BillingPeriod;
  onChange: (p: BillingPeriod) => void;
}) {
  const option = (value: BillingPeriod, label: string) => (
    <button
      type="button"
      aria-pressed={period === value}
      onClick={() => onChange(value)}
      className={`rounded-full px-4 py-2 text-sm font-semibold transition-colors ${
        period === value ? "bg-white text-slate-900 shadow-sm" : "text-slate-700 hover:text-slate-900"
      }`}
    >
      {label}
    </button>
  );
  return (
    <fieldset className="inline-flex rounded-full bg-slate-100 p-1">
      <legend className="sr-only">Billing period</legend>
      {option("monthly", "Monthly")}
      {option("annual", "Annual")}
    </fieldset>
  );
}

function PlanCard({ plan, period }: { plan: PaidPlan; period: BillingPeriod }) {
  const annual = period === "annual";
  const per = plan.unit
    ? `per ${plan.unit} per ${annual ? "year" : "month"}`
    : `per ${annual ? "year" : "month"}`;
  return (
    <li
      className={`relative flex flex-col rounded-2xl bg-white p-6 sm:p-8 ${
        plan.highlighted ? "shadow-xl ring-2 ring-brand-600" : "border border-slate-200 shadow-sm"
      }`}
    >
      {plan.highlighted ? (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
          Most popular
        </p>
      ) : null}
      <div className="flex items-center justify-between gap-2">
        <h3 id={`plan-${plan.id}`} className="text-lg font-semibold text-slate-900">
          {plan.name}
        </h3>
        {annual ? (
          <span className="rounded-full bg-emerald-50 px-2.5 py-0.5 text-sm font-semibold text-emerald-800">
            {plan.annualDiscountLabel}
          </span>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-slate-600">{plan.tagline}</p>
      <p className="mt-6 flex items-baseline gap-1.5" data-testid={`price-${plan.id}`}>
        <span className="text-4xl font-extrabold tracking-tight text-slate-900">
          {formatPrice(annual ? plan.annual : plan.monthly)}
        </span>
        <span className="text-sm text-slate-600">{per}</span>
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {annual
          ? `Instead of ${formatPrice(Math.round(plan.monthly * 12 * 100) / 100)} when paid monthly`
          : `or ${formatPrice(plan.annual)} per year (${plan.annualDiscountLabel} annually)`}
      </p>
      <Link
        href="/signup"
        className={`mt-6 rounded-lg px-4 py-2.5 text-center font-semibold transition-colors ${
          plan.highlighted
            ? "bg-brand-600 text-white hover:bg-brand-700"
            : "bg-brand-50 text-brand-700 hover:bg-brand-100"
        }`}
      >
        Start {TRIAL_DAYS}-day free trial
      </Link>
      <ul className="mt-6 space-y-3 text-sm text-slate-700">
        {plan.features.map((f) => (
          <li key={f} className="flex gap-2">
            <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-brand-600" /> {f}
          </li>
        ))}
      </ul>
    </li>
  );
}

function EnterpriseCard() {
  return (
    <li className="flex flex-col rounded-2xl border border-slate-800 bg-slate-900 p-6 text-white shadow-sm sm:p-8">
      <h3 id="plan-enterprise" className="text-lg font-semibold">
        {ENTERPRISE_PLAN.name}
      </h3>
      <p className="mt-1 text-sm text-slate-300">{ENTERPRISE_PLAN.tagline}</p>
      <p className="mt-6 text-4xl font-extrabold tracking-tight">Custom</p>
      <p className="mt-1 text-sm text-slate-300">Custom pricing for your team</p>
      <ContactSalesDialog
        trigger={
          <button
            type="button"
            className="mt-6 rounded-lg bg-white px-4 py-2.5 text-center font-semibold text-slate-900 transition-colors hover:bg-brand-50"
          >
            Contact Sales
          </button>
        }
      />
      <ul className="mt-6 space-y-3 text-sm text-slate-200">
        {ENTERPRISE_PLAN.features.map((f) => (
          <li key={f} className="flex gap-2">
            <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-brand-100" /> {f}
          </li>
        ))}
      </ul>
    </li>
  );
}

export default function PricingPage() {
  const [period, setPeriod] = useState<BillingPeriod>("monthly");
  return (
    <SiteLayout>
      <section aria-labelledby="pricing-title" className="bg-brand-50/60">
        <div className="mx-auto max-w-6xl px-4 pt-14 pb-20 sm:px-6 sm:pt-20">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Pricing</p>
            <h1
              id="pricing-title"
              className="mt-2 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl"
            >
              Simple, transparent pricing
            </h1>
            <p className="mt-4 text-lg text-slate-600">
              Start with a {TRIAL_DAYS}-day free trial. No credit card required.
            </p>
            <div className="mt-8">
              <BillingToggle period={period} onChange={setPeriod} />
            </div>
          </div>
          <h2 className="sr-only">Plans</h2>
          <ul className="mt-12 grid gap-8 lg:grid-cols-3">
            {PAID_PLANS.map((plan) => (
              <PlanCard key={plan.id} plan={plan} period={period} />
            ))}
            <EnterpriseCard />
          </ul>
          <p className="mt-8 text-center text-sm text-slate-600">
            Prices in US dollars ($). Every plan includes the {TRIAL_DAYS}-day free trial with no credit card.
          </p>
        </div>
      </section>

      <section
        id="faq"
        aria-labelledby="faq-title"
        className="scroll-mt-20 border-t border-slate-200 py-20 sm:py-24"
      >
        <div className="mx-auto max-w-4xl px-4 sm:px-6">
          <h2
            id="faq-title"
            className="text-center text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Frequently Asked Questions
          </h2>
          <dl className="mt-12 grid gap-x-10 gap-y-8 md:grid-cols-2">
            {FAQ.map(({ q, a }) => (
              <div key={q}>
                <dt className="font-semibold text-slate-900">{q}</dt>
                <dd className="mt-2 text-sm leading-6 text-slate-600">{a}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-12 flex flex-wrap items-center justify-center gap-2 text-center text-slate-700">
            <MailIcon className="h-5 w-5 text-brand-600" /> Still have questions?{" "}
            <a href={`mailto:${CONTACT_EMAIL}`} className="font-semibold text-brand-700 underline">
              {CONTACT_EMAIL}
            </a>
          </p>
        </div>
      </section>
    </SiteLayout>
  );
}
