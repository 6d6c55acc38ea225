import { useId, useState } from "react";
import type {
  NotificationMode,
  NotificationSettings,
  QuietHours,
} from "../../../../contract/notifications.ts";
import { useAccounts } from "../accounts/use-accounts.ts";
import {
  askPermission,
  browserTimeZone,
  subscribeThisBrowser,
  useNotificationSettings,
  useUpdateNotificationSettings,
} from "./notifications-api.ts";

export const PERMISSION_DENIED_TEXT =
  "Notifications are blocked for Mailwise in this browser. Allow them in the browser's site settings, then choose again.";
export const UNSUPPORTED_TEXT = "This browser cannot show notifications.";

const MODES: ReadonlyArray<{ mode: NotificationMode; label: string; hint: string }> = [
  { mode: "off", label: "Off", hint: "No notifications." },
  {
    mode: "important",
    label: "Important mail",
    hint: "VIP senders, urgent or important mail, and mail that asks something of you.",
  },
  {
    mode: "all",
    label: "All new mail",
    hint: "Every new mail, except newsletters, promotions, social and spam.",
  },
];

const DEFAULT_QUIET: QuietHours = { start: "22:00", end: "07:00" };

/** Settings > Notifications (issue 38): Off, Important mail or All new mail; per account; quiet hours. */
export function NotificationsSetting() {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const { accounts } = useAccounts();
  const headingId = useId();
  const quietId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const data = settings.data;

  const save = (change: Partial<NotificationSettings>) => {
    setNote(null);
    update.mutate(change, {
      onError: () => setProblem("The setting could not be saved. Try again."),
      onSuccess: () => setProblem(null),
    });
  };

  const choose = async (mode: NotificationMode) => {
    if (mode === "off") {
      setProblem(null);
      save({ mode });
      return;
    }
    // Turning on asks the browser first: a denied permission leaves the setting as it was.
    const permission = await askPermission();
    if (permission === "denied" || permission === "default") {
      setProblem(PERMISSION_DENIED_TEXT);
      return;
    }
    if (permission === "unsupported") {
      setProblem(UNSUPPORTED_TEXT);
      return;
    }
    setProblem(null);
    update.mutate(
      { mode },
      {
        onError: () => setProblem("The setting could not be saved. Try again."),
        onSuccess: async () => {
          const subscribed = await subscribeThisBrowser();
          setNote(subscribed.ok ? null : subscribed.reason);
        },
      },
    );
  };

  const on = data !== undefined && data.mode !== "off";
  const quiet = data?.quietHours ?? null;
  return (
    <section aria-labelledby={headingId} className="mt-6 border-t border-slate-200 pt-4">
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-slate-900">
        Notifications
      </h3>
      <fieldset disabled={!data || update.isPending}>
        <legend className="text-sm text-slate-800">Notify me about</legend>
        {MODES.map(({ mode, label, hint }) => (
          <label key={mode} className="mt-1 flex items-start gap-2 text-sm text-slate-800">
            <input
              type="radio"
              name={`${headingId}-mode`}
              className="mt-1 h-4 w-4 accent-brand-600"
              checked={(data?.mode ?? "off") === mode}
              onChange={() => void choose(mode)}
            />
            <span>
              {label}
              <span className="block text-xs text-slate-600">{hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {problem ? (
        <p role="alert" className="mt-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      {note ? (
        <p role="status" className="mt-2 text-sm text-slate-600">
          {note}
        </p>
      ) : null}
      {on && data ? (
        <div className="mt-3 space-y-3">
          {accounts.length > 1 ? (
            <fieldset>
              <legend className="text-sm text-slate-800">Accounts</legend>
              {accounts.map((account) => (
                <label key={account.id} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-brand-600"
                    checked={!data.mutedAccountIds.includes(account.id)}
                    onChange={(e) =>
                      save({
                        mutedAccountIds: e.target.checked
                          ? data.mutedAccountIds.filter((id) => id !== account.id)
                          : [...data.mutedAccountIds, account.id],
                      })
                    }
                  />
                  {account.email}
                </label>
              ))}
            </fieldset>
          ) : null}
          <div>
            <label htmlFor={quietId} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                id={quietId}
                type="checkbox"
                className="h-4 w-4 accent-brand-600"
                checked={quiet !== null}
                onChange={(e) => save({ quietHours: e.target.checked ? DEFAULT_QUIET : null })}
              />
              Quiet hours
            </label>
            {quiet ? (
              <QuietHoursFields quiet={quiet} onChange={(next) => save({ quietHours: next })} />
            ) : null}
          </div>
        </div>
      ) : null}
      {data === undefined && settings.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          This setting could not be loaded. Close this window and try again.
        </p>
      ) : null}
    </section>
  );
}

function QuietHoursFields({ quiet, onChange }: { quiet: QuietHours; onChange: (next: QuietHours) => void }) {
  const fromId = useId();
  const toId = useId();
  const [draft, setDraft] = useState(quiet);
  const commit = (next: QuietHours) => {
    setDraft(next);
    if (/^\d\d:\d\d$/.test(next.start) && /^\d\d:\d\d$/.test(next.end) && next.start !== next.end)
      onChange(next);
  };
  return (
    <div className="mt-2 ml-6 flex flex-wrap items-center gap-2 text-sm text-slate-800">
      <label htmlFor={fromId}>From</label>
      <input
        id={fromId}
        type="time"
        className="rounded-lg border border-slate-300 px-2 py-1"
        value={draft.start}
        onChange={(e) => commit({ ...draft, start: e.target.value })}
      />
      <label htmlFor={toId}>to</label>
      <input
        id={toId}
        type="time"
        className="rounded-lg border border-slate-300 px-2 py-1"
        value={draft.end}
        onChange={(e) => commit({ ...draft, end: e.target.value })}
      />
      <span className="block w-full text-xs text-slate-600">
        In your time zone ({browserTimeZone()}). An end before the start runs past midnight.
      </span>
    </div>
  );
}
