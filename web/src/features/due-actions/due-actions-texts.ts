import type { DueActionAttention } from "../../../../contract/due-actions.ts";

/** The banner's heading: "1 scheduled action failed: <reason>", or the count when there are more. */
export function failedActionsTitle(failed: readonly DueActionAttention[]): string {
  const count = failed.length;
  const title = `${count} scheduled action${count === 1 ? "" : "s"} failed`;
  const only = failed[0];
  return count === 1 && only ? `${title}: ${only.reason ?? "unknown reason"}` : title;
}

/** A waiting action's line: it runs once the account is reconnected. */
export function waitingActionText(action: DueActionAttention): string {
  return `${action.label} is waiting: reconnect your account and it runs.`;
}
