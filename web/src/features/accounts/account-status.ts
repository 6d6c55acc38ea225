import type { MailAccount } from "../../../../contract/auth.ts";

/** The label shown beside an account; reauth_required needs the user to sign in again. */
export function accountStatusLabel(status: MailAccount["status"]): string {
  return status === "reauth_required" ? "Needs reconnect" : "Connected";
}
