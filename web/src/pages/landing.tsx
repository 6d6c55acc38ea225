import type { ReactNode, SVGProps } from "react";
import { Link } from "wouter";
import {
  ArrowRightIcon,
  BrainIcon,
  CheckIcon,
  InboxIcon,
  LinkIcon,
  LockIcon,
  MailIcon,
  PenIcon,
  ReplyIcon,
  ShieldIcon,
  SparkIcon,
  TrophyIcon,
} from "../features/public/icons.tsx";
import { SiteLayout } from "../features/public/site-layout.tsx";

type IconComponent = (props: SVGProps<SVGSVGElement>) => ReactNode;

interface Feature {
  icon: IconComponent;
  title: string;
  body: string;
}

const FEATURES: Feature[] = [
  {
    icon: SparkIcon,
    title: "AI analysis of every email",
    body: "Each message arrives with its sentiment, its urgency and a short summary, so you know what matters before you open it.",
  },
  {
    icon: PenIcon,
    title: "Reply drafts and writing help",
    body: "Get suggested reply drafts in your tone, and help composing new emails or improving the one you are writing.",
  },
  {
    icon: BrainIcon,
    title: "A personal AI agent",
    body: "Your agent learns your email patterns: who is important, how you answer, what you ignore. Its memory stays with you across job changes.",
  },
  {
    icon: ShieldIcon,
    title: "Security scanning",
    body: "Suspicious links and senders are scanned, and phishing attempts are flagged before you click.",
  },
  {
    icon: TrophyIcon,
    title: "Inbox Zero, made a game",
    body: "Dashboard buckets sort your mail. Swipe through a swipe-style Inbox Zero mode, earn achievements and climb the leaderboard.",
  },
  {
    icon: LockIcon,
    title: "Calendar and privacy controls",
    body: "See your calendar beside your mail, and decide what is kept, for how long, and whether it can be used for analytics.",
  },
];

const AGENT_CARDS = [
  {
    label: "Inbox analysis",
    status: "Active",
    detail: "Sentiment, urgency and a summary for each new email",
    tone: "green",
  },
  {
    label: "Reply drafts",
    status: "Ready",
    detail: "Suggested answers waiting for your review",
    tone: "indigo",
  },
  {
    label: "Pattern learning",
    status: "Learning",
    detail: "Remembers your VIPs, tone and habits",
    tone: "amber",
  },
  {
    label: "Security scan",
    status: "Protected",
    detail: "Phishing checks on links and senders",
    tone: "green",
  },
] as const;

const TONE_CLASSES: Record<(typeof AGENT_CARDS)[number]["tone"], string> = {
  green: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  indigo: "bg-brand-50 text-brand-700 ring-brand-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
};

const STEPS: Feature[] = [
  {
    icon: LinkIcon,
    title: "Connect",
    body: "Sign in with Google or Microsoft through OAuth 2.0 and add as many Gmail and Outlook accounts as you use, at home and at work.",
  },
  {
    icon: SparkIcon,
    title: "Analyze",
    body: "Mailwise reads each new email for sentiment, urgency and meaning, sorts it into buckets and points out what needs action.",
  },
  {
    icon: ReplyIcon,
    title: "Respond",
    body: "Answer with a suggested draft, polish your own words, or archive in one swipe until you reach Inbox Zero.",
  },
];

const TRUST_POINTS = ["14-day free trial", "No credit card required", "OAuth 2.0, no passwords stored"];

function Eyebrow({ children }: { children: ReactNode }) {
  return <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">{children}</p>;
}

/** A static picture of the product: a few analysed emails in the unified inbox. */
function InboxPreview() {
  const rows = [
    {
      from: "Dana (Work)",
      subject: "Q3 budget review moved to Thursday",
      badge: "Urgent",
      badgeClass: "bg-red-50 text-red-700",
    },
    {
      from: "Sam (Gmail)",
      subject: "Dinner on Saturday?",
      badge: "Personal",
      badgeClass: "bg-emerald-50 text-emerald-700",
    },
    {
      from: "Billing Team",
      subject: "Your account will be suspended",
      badge: "Phishing",
      badgeClass: "bg-amber-50 text-amber-800",
    },
  ];
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div className="absolute -inset-4 rounded-3xl bg-gradient-to-tr from-brand-100 via-white to-sky-100 blur-2xl" />
      <div className="relative overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl shadow-brand-900/10">
        <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
          <div className="flex items-center gap-2 text-sm font-semibold text-slate-800">
            <InboxIcon className="h-4 w-4 text-brand-600" /> Unified inbox
          </div>
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
            3 accounts
          </span>
        </div>
        <ul className="divide-y divide-slate-100">
          {rows.map((r) => (
            <li key={r.subject} className="flex items-start gap-3 px-4 py-3">
              <div className="mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-700">
                {r.from.charAt(0)}
              </div>
              <div className="min-w-0 flex-1">
                <div className="flex items-center justify-between gap-2">
                  <p className="truncate text-sm font-medium text-slate-900">{r.from}</p>
                  <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${r.badgeClass}`}>
                    {r.badge}
                  </span>
                </div>
                <p className="truncate text-sm text-slate-600">{r.subject}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="border-t border-slate-100 bg-slate-50 px-4 py-3">
          <p className="flex items-center gap-2 text-xs font-semibold text-brand-700">
            <SparkIcon className="h-4 w-4" /> AI summary
          </p>
          <p className="mt-1 text-sm text-slate-700">
            The budget review moved to Thursday 10:00. Dana needs your numbers by Wednesday.
          </p>
          <div className="mt-3 flex gap-2">
            <span className="rounded-md bg-brand-600 px-2.5 py-1 text-xs font-medium text-white">
              Use draft reply
            </span>
            <span className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700">
              Archive
            </span>
          </div>
        </div>
      </div>
    </div>
  );
}

function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden bg-brand-50/60">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-14 pb-20 sm:px-6 lg:grid-cols-2 lg:pt-20">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-brand-700 shadow-sm ring-1 ring-brand-100">
            <MailIcon className="h-4 w-4" /> For Gmail and Outlook
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl"
          >
            Your email, finally <span className="text-brand-600">under control</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-8 text-slate-600">
            Mailwise brings all your Gmail and Outlook accounts into one inbox, reads every email for you,
            drafts the replies and keeps you moving towards Inbox Zero.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link
              href="/signup"
              className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-6 py-3 font-semibold text-white shadow-sm transition-colors hover:bg-brand-700"
            >
              Start your free trial <ArrowRightIcon className="h-4 w-4" />
            </Link>
            <Link
              href="/pricing"
              className="inline-flex items-center justify-center rounded-lg border border-slate-300 bg-white px-6 py-3 font-semibold text-slate-800 transition-colors hover:bg-slate-50"
            >
              See pricing
            </Link>
          </div>
          <ul className="mt-8 flex flex-col gap-2 text-sm text-slate-700 sm:flex-row sm:flex-wrap sm:gap-x-6">
            {TRUST_POINTS.map((t) => (
              <li key={t} className="flex items-center gap-2">
                <CheckIcon className="h-4 w-4 text-emerald-600" /> {t}
              </li>
            ))}
          </ul>
        </div>
        <InboxPreview />
      </div>
    </section>
  );
}

function Features() {
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-20 py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="max-w-2xl">
          <Eyebrow>Features</Eyebrow>
          <h2
            id="features-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Everything your inbox needs, in one place
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            AI that reads, sorts and drafts, wrapped in an inbox that is fun to empty.
          </p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ icon: FeatureIcon, title, body }) => (
            <li
              key={title}
              className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md"
            >
              <div className="flex h-11 w-11 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
                <FeatureIcon className="h-6 w-6" />
              </div>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{body}</p>
            </li>
          ))}
        </ul>
        <div className="mt-6 flex flex-col gap-6 rounded-2xl bg-slate-900 p-6 text-white sm:p-8 lg:flex-row lg:items-center lg:justify-between">
          <div className="flex gap-4">
            <div className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-white/10">
              <InboxIcon className="h-6 w-6" />
            </div>
            <div>
              <h3 className="text-lg font-semibold">One unified inbox for all your accounts</h3>
              <p className="mt-1 text-sm leading-6 text-slate-300">
                Connect several Gmail and Outlook accounts side by side. Sign-in uses OAuth 2.0, so no
                passwords are ever stored, and no credit card is needed at sign-up.
              </p>
            </div>
          </div>
          <Link
            href="/signup"
            className="inline-flex shrink-0 items-center justify-center rounded-lg bg-white px-5 py-2.5 font-semibold text-slate-900 hover:bg-brand-50"
          >
            Connect your inbox
          </Link>
        </div>
      </div>
    </section>
  );
}

function AgentStatus() {
  return (
    <section aria-labelledby="agent-title" className="bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <Eyebrow>Your AI agent</Eyebrow>
          <h2 id="agent-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Always on, always learning
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Your personal agent works through your mail in the background and shows you exactly what it is
            doing.
          </p>
        </div>
        <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {AGENT_CARDS.map((card) => (
            <li key={card.label} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-semibold text-slate-900">{card.label}</h3>
                <span
                  className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${TONE_CLASSES[card.tone]}`}
                >
                  <span className="h-1.5 w-1.5 rounded-full bg-current" aria-hidden="true" />
                  {card.status}
                </span>
              </div>
              <p className="mt-3 text-sm leading-6 text-slate-600">{card.detail}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function About() {
  return (
    <section id="about" aria-labelledby="about-title" className="scroll-mt-20 py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="max-w-2xl">
          <Eyebrow>About Mailwise</Eyebrow>
          <h2 id="about-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Connect, analyze, respond
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Mailwise is an email client for people who juggle personal and work accounts. It adds an AI layer
            on top of the mail you already have, without asking you to move providers.
          </p>
        </div>
        <ol className="mt-12 grid gap-8 md:grid-cols-3">
          {STEPS.map(({ icon: StepIcon, title, body }, i) => (
            <li key={title} className="relative rounded-2xl border border-slate-200 p-6">
              <div className="flex items-center gap-3">
                <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-brand-600 text-white">
                  <StepIcon className="h-6 w-6" />
                </span>
                <span className="text-sm font-semibold text-slate-600">Step {i + 1}</span>
              </div>
              <h3 className="mt-4 text-xl font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{body}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

function ClosingCallToAction() {
  return (
    <section aria-labelledby="cta-title" className="px-4 pb-20 sm:px-6 sm:pb-24">
      <div className="mx-auto max-w-6xl overflow-hidden rounded-3xl bg-gradient-to-br from-brand-600 to-brand-900 px-6 py-14 text-center shadow-xl sm:px-12">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
          Ready to reach Inbox Zero?
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-brand-100">
          Try every feature free for 14 days. No credit card required.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link
            href="/signup"
            className="inline-flex items-center justify-center gap-2 rounded-lg bg-white px-6 py-3 font-semibold text-brand-700 shadow-sm hover:bg-brand-50"
          >
            Get started free <ArrowRightIcon className="h-4 w-4" />
          </Link>
          <Link
            href="/pricing"
            className="inline-flex items-center justify-center rounded-lg px-6 py-3 font-semibold text-white ring-1 ring-white/40 hover:bg-white/10"
          >
            Compare plans
          </Link>
        </div>
      </div>
    </section>
  );
}

export default function LandingPage() {
  return (
    <SiteLayout>
      <Hero />
      <Features />
      <AgentStatus />
      <About />
      <ClosingCallToAction />
    </SiteLayout>
  );
}
