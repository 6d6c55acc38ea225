import { BTN_SECONDARY } from "../reader/dialog-classes.ts";
import { useDismissDueAction, useFailedDueActions, useRetryDueAction } from "./due-actions-api.ts";
import { failedActionsTitle, waitingActionText } from "./due-actions-texts.ts";

/**
 * Scheduled actions of any kind that need the person (decision 0073): one given up is shown with
 * its reason and Retry / Dismiss, one stopped by a revoked grant asks for the reconnect. Nothing
 * the worker gave up is dropped without being shown here.
 */
export function FailedActionsBanner({ onReconnect }: { onReconnect: () => void }) {
  const list = useFailedDueActions();
  const retry = useRetryDueAction();
  const dismiss = useDismissDueAction();
  const items = list.data?.items ?? [];
  const failed = items.filter((item) => item.status === "failed");
  const waiting = items.filter((item) => item.status === "waiting");
  if (items.length === 0) return null;
  return (
    <section
      aria-label="Scheduled actions that need you"
      className="grid gap-2 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-950"
    >
      {failed.length > 0 ? (
        <>
          <p role="alert" className="font-medium">
            {failedActionsTitle(failed)}
          </p>
          <ul className="grid gap-2">
            {failed.map((item) => (
              <li
                key={item.id}
                className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between"
                data-testid="failed-action"
              >
                <span className="min-w-0 break-words">
                  <span className="font-medium">{item.label}</span>
                  {failed.length > 1 && item.reason ? <span>: {item.reason}</span> : null}
                </span>
                <span className="flex shrink-0 gap-2">
                  <button
                    type="button"
                    className={BTN_SECONDARY}
                    disabled={retry.isPending}
                    onClick={() => retry.mutate(item.id)}
                  >
                    Retry
                  </button>
                  <button
                    type="button"
                    className={BTN_SECONDARY}
                    disabled={dismiss.isPending}
                    onClick={() => dismiss.mutate(item.id)}
                  >
                    Dismiss
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {waiting.map((item) => (
        <p
          key={item.id}
          className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between"
          data-testid="waiting-action"
        >
          <span className="min-w-0 break-words">{waitingActionText(item)}</span>
          <button type="button" className={`${BTN_SECONDARY} shrink-0`} onClick={onReconnect}>
            Reconnect
          </button>
        </p>
      ))}
    </section>
  );
}
