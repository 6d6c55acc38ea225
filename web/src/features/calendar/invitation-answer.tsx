import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { InvitationAnswer, InvitationResponse } from "../../../../contract/calendar.ts";
import { ApiError } from "../../lib/api.ts";
import { invitationAnswerKey, useAnswerInvitation } from "./calendar-api.ts";
import { PROVIDER_NAME } from "./labels.ts";

const CHOICES: { value: InvitationAnswer; label: string }[] = [
  { value: "accepted", label: "Yes" },
  { value: "tentative", label: "Maybe" },
  { value: "declined", label: "No" },
];
const SAID: Record<InvitationAnswer, string> = { accepted: "Yes", tentative: "Maybe", declined: "No" };

function doneText(answer: InvitationResponse, provider: "google" | "outlook" | undefined): string {
  if (answer.via === "calendar") {
    const where = provider ? `${PROVIDER_NAME[provider]} (${answer.from})` : answer.from;
    return `You answered ${SAID[answer.response]} on ${where}; ${answer.organizer} is told.`;
  }
  return `You answered ${SAID[answer.response]}. Your answer was sent to ${answer.organizer}.`;
}

/**
 * Yes / Maybe / No under an invitation, the person's last answer pressed. The pressed button
 * shows the choice at once; if the answer cannot be delivered the choice goes back to what it
 * was and the card says why.
 */
export function InvitationAnswerButtons({
  emailId,
  stored,
  calendarProviderOf,
}: {
  emailId: string;
  /** The answer the server keeps for this email (after a reload); this session's answer wins. */
  stored: InvitationResponse | null;
  /** Which provider a connected calendar's address belongs to, for the confirmation. */
  calendarProviderOf: (email: string) => "google" | "outlook" | undefined;
}) {
  const labelId = useId();
  const queryClient = useQueryClient();
  const remembered =
    queryClient.getQueryData<InvitationResponse>(invitationAnswerKey(emailId)) ?? stored ?? undefined;
  const [done, setDone] = useState<InvitationResponse | undefined>(remembered);
  const [chosen, setChosen] = useState<InvitationAnswer | undefined>(remembered?.response);
  const [failure, setFailure] = useState<string | null>(null);
  const answer = useAnswerInvitation(emailId);

  const choose = (value: InvitationAnswer) => {
    const before = chosen;
    setChosen(value);
    setFailure(null);
    answer.mutate(value, {
      onSuccess: (result) => setDone(result),
      onError: (err) => {
        setChosen(before);
        setFailure(
          `We could not send your answer: ${err instanceof ApiError ? err.message : "please try again."}`,
        );
      },
    });
  };

  return (
    <div className="mt-3" data-testid="invitation-answer">
      <div className="flex flex-wrap items-center gap-2">
        <span id={labelId} className="text-slate-700">
          Going?
        </span>
        <fieldset aria-labelledby={labelId} className="flex rounded-lg border border-slate-300 p-0.5">
          {CHOICES.map((choice) => (
            <button
              key={choice.value}
              type="button"
              aria-pressed={chosen === choice.value}
              disabled={answer.isPending}
              onClick={() => choose(choice.value)}
              className={`rounded-md px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-wait ${chosen === choice.value ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {choice.label}
            </button>
          ))}
        </fieldset>
        {answer.isPending ? <span className="text-xs text-slate-600">Sending…</span> : null}
      </div>
      {failure ? (
        <p role="alert" className="mt-2 rounded-lg bg-rose-50 px-3 py-2 text-rose-800">
          {failure}
        </p>
      ) : done && !answer.isPending && chosen === done.response ? (
        <p className="mt-2 text-emerald-800" aria-live="polite" data-testid="invitation-answer-status">
          {doneText(done, calendarProviderOf(done.from))}
        </p>
      ) : null}
    </div>
  );
}
