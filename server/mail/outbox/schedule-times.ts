import {
  type FollowUp,
  REMIND_AT_PAST_MESSAGE,
  REMIND_AT_TOO_FAR_MESSAGE,
  SCHEDULE_MAX_AHEAD_MS,
  SEND_AT_PAST_MESSAGE,
  SEND_AT_TOO_FAR_MESSAGE,
} from "../../../contract/scheduled.ts";
import { DomainError } from "../../http/errors.ts";

const DAY_MS = 24 * 60 * 60_000;

/** A chosen send time checked against the server's clock: not past, at most a year ahead. */
export function checkSendAt(sendAt: string, nowMs: number): Date {
  const at = Date.parse(sendAt);
  if (Number.isNaN(at)) throw new DomainError("bad_request", "The time to send is not a valid date.");
  if (at <= nowMs) throw new DomainError("bad_request", SEND_AT_PAST_MESSAGE);
  if (at > nowMs + SCHEDULE_MAX_AHEAD_MS) throw new DomainError("bad_request", SEND_AT_TOO_FAR_MESSAGE);
  return new Date(at);
}

/** A reminder's date checked when the mail is stored: after the send, at most a year from now. */
export function checkFollowUp(followUp: FollowUp | undefined, sendMs: number, nowMs: number): void {
  if (!followUp || "days" in followUp) return;
  const at = Date.parse(followUp.at);
  if (Number.isNaN(at) || at <= sendMs) throw new DomainError("bad_request", REMIND_AT_PAST_MESSAGE);
  if (at > nowMs + SCHEDULE_MAX_AHEAD_MS) throw new DomainError("bad_request", REMIND_AT_TOO_FAR_MESSAGE);
}

/** When a reminder for a mail sent at `sentMs` comes due. */
export function followUpTime(followUp: FollowUp, sentMs: number): Date {
  if ("days" in followUp) return new Date(sentMs + followUp.days * DAY_MS);
  // A mail sent later than planned (Send now, a retry) never gets a reminder before it went.
  return new Date(Math.max(Date.parse(followUp.at), sentMs));
}
