import { useState } from "react";
import { Link } from "wouter";
import { Spinner } from "../components/ui/spinner.tsx";
import { accountStatusLabel } from "../features/accounts/account-status.ts";
import { AccountsDialog } from "../features/accounts/accounts-dialog.tsx";
import { formatDay, planName, trialDaysLeft } from "../features/accounts/plan.ts";
import { ProviderIcon } from "../features/auth/provider-icons.tsx";
import { PROVIDER_NAMES } from "../features/auth/providers.ts";
import { useSession } from "../lib/session.tsx";

function GearIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z" />
      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z" />
    </svg>
  );
}

export default function DashboardPage() {
  const session = useSession();
  const [accountsOpen, setAccountsOpen] = useState(false);
  // RequireAuth only renders this page for a signed-in user; the guard keeps the types honest.
  if (session.status !== "authenticated") return <Spinner />;
  const { user } = session;

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
          <div className="flex items-center gap-3">
            <span
              className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 font-bold text-white"
              aria-hidden="true"
            >
              M
            </span>
            <h1 className="text-lg font-semibold text-slate-900">Dashboard</h1>
          </div>
          <nav aria-label="Account" className="flex items-center gap-2">
            <button
              type="button"
              aria-label="Settings"
              title="Settings"
              onClick={() => setAccountsOpen(true)}
              className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <GearIcon />
            </button>
            <Link
              href="/logout"
              className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
            >
              Sign out
            </Link>
          </nav>
        </div>
      </header>

      <main className="mx-auto grid max-w-5xl gap-6 px-4 py-8 md:grid-cols-3">
        <section
          className="rounded-2xl border border-slate-200 bg-white p-6 md:col-span-2"
          aria-labelledby="welcome"
        >
          <h2 id="welcome" className="text-2xl font-bold text-slate-900">
            Welcome, {user.displayName}
          </h2>
          <p className="mt-1 text-slate-600">{user.email}</p>
          <p className="mt-4 text-slate-700">
            Your unified inbox is being prepared. Connect every mailbox you use so Mailwise can sort and
            summarise it for you.
          </p>
        </section>

        <section className="rounded-2xl border border-slate-200 bg-white p-6" aria-labelledby="plan">
          <h2 id="plan" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
            Plan
          </h2>
          <p className="mt-2 text-xl font-semibold text-slate-900">{planName(user.plan)}</p>
          {user.plan === "trial" ? (
            <p className="mt-1 text-sm text-slate-600">
              Trial ends {formatDay(user.trialEndsAt)} ({trialDaysLeft(user.trialEndsAt)} days left)
            </p>
          ) : null}
        </section>

        <section
          className="rounded-2xl border border-slate-200 bg-white p-6 md:col-span-3"
          aria-labelledby="mailboxes"
        >
          <div className="flex items-center justify-between gap-4">
            <h2 id="mailboxes" className="text-lg font-semibold text-slate-900">
              Your mailboxes
            </h2>
            <button
              type="button"
              onClick={() => setAccountsOpen(true)}
              className="rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100"
            >
              Manage accounts
            </button>
          </div>
          <ul className="mt-4 grid gap-3 sm:grid-cols-2">
            {user.accounts.map((a) => (
              <li key={a.id} className="flex items-center gap-3 rounded-lg border border-slate-200 p-3">
                <ProviderIcon provider={a.provider} className="h-6 w-6 shrink-0" />
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium text-slate-900">{a.email}</p>
                  <p className="text-xs text-slate-500">
                    {PROVIDER_NAMES[a.provider]} · {accountStatusLabel(a.status)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </section>
      </main>

      {/* Always mounted: a sign-in popup started here keeps being watched after the dialog closes. */}
      <AccountsDialog open={accountsOpen} onOpenChange={setAccountsOpen} />
    </div>
  );
}
