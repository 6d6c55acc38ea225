import { DashboardCard } from "../../components/ui/dashboard-card.tsx";
import { toast } from "../../components/ui/toast-store.ts";
import { BTN_SECONDARY } from "../reader/dialog-classes.ts";
import { browserTimeZone, useSnoozeActions, useSnoozed } from "./snooze-api.ts";
import { SnoozeMenu } from "./snooze-menu.tsx";
import { formatWake } from "./snooze-presets.ts";

const SMALL = BTN_SECONDARY.replace("px-3 py-2", "px-2 py-1");

/**
 * The Snoozed view (issue 37) on the dashboard beside Drafts: each snoozed conversation with its
 * wake time, "Unsnooze" (back in the inbox now) and "Change time"; a wake waiting for the person
 * (a revoked account) says so in words.
 */
export function SnoozedCard() {
  const { data, isError } = useSnoozed();
  const actions = useSnoozeActions();
  const timeZone = browserTimeZone();
  return (
    <DashboardCard
      id="snoozed-title"
      title="Snoozed"
      count={data?.items.length}
      data={data}
      isError={isError}
      errorText="Could not load snoozed mail."
    >
      {(data) =>
        data.items.length === 0 ? (
          <p className="mt-3 text-sm text-slate-500">Nothing snoozed</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100" aria-label="Snoozed mail">
            {data.items.map((item) => (
              <li key={item.conversationId} className="py-2" aria-label={item.subject || "(no subject)"}>
                <div className="flex items-baseline justify-between gap-2">
                  <span className="min-w-0 truncate text-sm font-medium text-slate-900">
                    {item.subject || "(no subject)"}
                  </span>
                  <time dateTime={item.until} className="shrink-0 text-xs text-slate-600">
                    Until {formatWake(new Date(item.until), timeZone)}
                  </time>
                </div>
                <p className="truncate text-xs text-slate-600">
                  {item.from} · {item.accountEmail}
                </p>
                {item.problem ? (
                  <p role="alert" className="mt-1 text-xs text-red-700">
                    {item.problem}
                  </p>
                ) : null}
                <div className="mt-1 flex gap-2">
                  <button
                    type="button"
                    className={SMALL}
                    disabled={actions.isPending}
                    onClick={() =>
                      void actions
                        .mutateAsync({ kind: "unsnooze", conversationId: item.conversationId })
                        .then(
                          () => toast({ title: "Back in your inbox", description: item.subject }),
                          (err: unknown) =>
                            toast({
                              title: "Error",
                              description: `We could not unsnooze this: ${err instanceof Error ? err.message : "unknown error"}`,
                              variant: "destructive",
                            }),
                        )
                    }
                  >
                    Unsnooze
                  </button>
                  <SnoozeMenu
                    conversationId={item.conversationId}
                    kind="change"
                    label="Change time"
                    triggerClassName={SMALL}
                  />
                </div>
              </li>
            ))}
          </ul>
        )
      }
    </DashboardCard>
  );
}

/** "Snoozed until Mon 8:00 AM": the mark on mail a snooze brought back (list rows and reader). */
export function ResurfacedMark({ at, reason }: { at: string; reason: "snoozed" | "no_reply" }) {
  const text =
    reason === "snoozed" ? `Snoozed until ${formatWake(new Date(at), browserTimeZone())}` : "No reply yet";
  return (
    <span className="inline-flex shrink-0 items-center rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">
      {text}
    </span>
  );
}
