import type { SessionUser } from "../../../../contract/auth.ts";
import { accountStatusLabel } from "../accounts/account-status.ts";
import { formatDay, planName, trialDaysLeft } from "../accounts/plan.ts";
import { ProviderIcon } from "../auth/provider-icons.tsx";
import { PROVIDER_NAMES } from "../auth/providers.ts";

export interface WelcomeActions {
  onBrowse: () => void;
  onAnalytics: () => void;
  onCompose: () => void;
  onInboxZero: () => void;
  onAchievements: () => void;
  onLeaderboard: () => void;
  onPrivacy: () => void;
  onCalendar: () => void;
}

const btn =
  "inline-flex items-center justify-center rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";
const primary = `${btn} bg-brand-600 text-white hover:bg-brand-700`;
const secondary = `${btn} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;

/** Spec section 2: the welcome panel's buttons; Start Inbox Zero only while unread mail exists. */
export function WelcomePanel({
  user,
  hasUnread,
  actions,
}: {
  user: SessionUser;
  hasUnread: boolean;
  actions: WelcomeActions;
}) {
  return (
    <section aria-labelledby="welcome" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="welcome" className="text-xl font-bold text-slate-900 sm:text-2xl">
        Welcome, {user.displayName}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {planName(user.plan)} plan
        {user.plan === "trial" ? (
          <>
            {" · "}
            <span>
              Trial ends {formatDay(user.trialEndsAt)} ({trialDaysLeft(user.trialEndsAt)} days left)
            </span>
          </>
        ) : null}
      </p>
      <ul className="mt-3 flex flex-wrap gap-2" aria-label="Connected mailboxes">
        {user.accounts.map((a) => (
          <li
            key={a.id}
            className="flex min-w-0 items-center gap-2 rounded-full border border-slate-200 py-1 pr-3 pl-1.5 text-xs text-slate-700"
            title={`${PROVIDER_NAMES[a.provider]} · ${accountStatusLabel(a.status)}`}
          >
            <ProviderIcon provider={a.provider} className="h-4 w-4 shrink-0" />
            <span className="truncate">{a.email}</span>
            {a.status === "reauth_required" ? (
              <span className="font-medium text-amber-700">{accountStatusLabel(a.status)}</span>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="button" className={primary} onClick={actions.onBrowse}>
          Browse Emails
        </button>
        <button type="button" className={secondary} onClick={actions.onAnalytics}>
          View Analytics
        </button>
        <button type="button" className={secondary} onClick={actions.onCompose}>
          Compose Email
        </button>
        {hasUnread ? (
          <button type="button" className={secondary} onClick={actions.onInboxZero}>
            Start Inbox Zero
          </button>
        ) : null}
        <button type="button" className={secondary} onClick={actions.onAchievements}>
          Achievements
        </button>
        <button type="button" className={secondary} onClick={actions.onLeaderboard}>
          Leaderboard
        </button>
        <button type="button" className={secondary} onClick={actions.onPrivacy}>
          Privacy Settings
        </button>
        <button type="button" className={secondary} onClick={actions.onCalendar}>
          Calendar
        </button>
      </div>
    </section>
  );
}
