import { useId, useState } from "react";
import type { HeldMail } from "../../../../../contract/outbox.ts";
import { DashboardCard } from "../../../components/ui/dashboard-card.tsx";
import { toast } from "../../../components/ui/toast-store.ts";
import { ApiError } from "../../../lib/api.ts";
import { BTN_DANGER, BTN_PRIMARY, BTN_SECONDARY } from "../../reader/dialog-classes.ts";
import { formatSendTime, pickedTime, toLocalInput } from "./schedule-times.ts";
import { useScheduled, useScheduledActions } from "./scheduled-api.ts";

const SMALL = "px-2 py-1 text-xs";

function recipients(item: HeldMail): string {
  const all = [item.request.to, item.request.cc, item.request.bcc]
    .filter((s) => s && s.trim() !== "")
    .join(", ");
  return all || "(no recipient)";
}

function failure(err: unknown, fallback: string): void {
  toast({
    title: fallback,
    description: err instanceof ApiError && err.message ? err.message : undefined,
    variant: "destructive",
  });
}

/** One scheduled mail with its actions; Reschedule opens a date and time field in place. */
function ScheduledRow({ item, onEdit }: { item: HeldMail; onEdit: (item: HeldMail) => void }) {
  const { reschedule, sendNow, cancel } = useScheduledActions();
  const [editingTime, setEditingTime] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const subject = item.request.subject || "(no subject)";
  const busy = reschedule.isPending || sendNow.isPending || cancel.isPending || item.status === "sending";
  return (
    <li className="py-2" aria-label={subject}>
      <div className="flex items-baseline justify-between gap-2">
        <span className="min-w-0 truncate text-sm font-medium text-slate-900">{recipients(item)}</span>
        <time dateTime={item.sendAt} className="shrink-0 text-xs text-slate-600">
          {formatSendTime(item.sendAt)}
        </time>
      </div>
      <p className="truncate text-xs text-slate-600">{subject}</p>
      {item.status === "failed" ? (
        <p className="mt-1 text-xs text-red-700">Not sent: {item.error ?? "unknown reason"}</p>
      ) : item.status === "sending" ? (
        <p className="mt-1 text-xs text-slate-600">Sending…</p>
      ) : null}
      {editingTime ? (
        <form
          className="mt-2 flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const picked = pickedTime(value, new Date());
            if ("error" in picked) {
              setError(picked.error);
              return;
            }
            reschedule.mutate(
              { id: item.id, sendAt: picked.at.toISOString() },
              {
                onSuccess: () => setEditingTime(false),
                onError: (err) => failure(err, "Could not reschedule"),
              },
            );
          }}
        >
          <label htmlFor={inputId} className="sr-only">
            New time for {subject}
          </label>
          <input
            id={inputId}
            type="datetime-local"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
            className="rounded-lg border border-slate-300 px-2 py-1 text-xs"
          />
          <button type="submit" className={`${BTN_PRIMARY} ${SMALL}`} disabled={busy}>
            Save time
          </button>
          <button type="button" className={`${BTN_SECONDARY} ${SMALL}`} onClick={() => setEditingTime(false)}>
            Keep time
          </button>
          {error ? (
            <p role="alert" className="w-full text-xs text-red-700">
              {error}
            </p>
          ) : null}
        </form>
      ) : (
        <div className="mt-2 flex flex-wrap gap-1">
          <button
            type="button"
            className={`${BTN_SECONDARY} ${SMALL}`}
            disabled={busy}
            onClick={() => onEdit(item)}
          >
            Edit
          </button>
          <button
            type="button"
            className={`${BTN_SECONDARY} ${SMALL}`}
            disabled={busy}
            onClick={() => {
              setValue(toLocalInput(new Date(item.sendAt)));
              setError(null);
              setEditingTime(true);
            }}
          >
            Reschedule
          </button>
          <button
            type="button"
            className={`${BTN_SECONDARY} ${SMALL}`}
            disabled={busy}
            onClick={() =>
              sendNow.mutate(item.id, {
                onSuccess: (answer) =>
                  answer.sent
                    ? toast({ title: "Email sent" })
                    : toast({
                        title: `Not sent: ${answer.item?.error ?? "unknown reason"}`,
                        variant: "destructive",
                      }),
                onError: (err) => failure(err, "Could not send"),
              })
            }
          >
            Send now
          </button>
          <button
            type="button"
            className={`${BTN_DANGER} ${SMALL}`}
            disabled={busy}
            onClick={() =>
              cancel.mutate(item.id, {
                onSuccess: () => toast({ title: "Scheduled mail cancelled" }),
                onError: (err) => failure(err, "Could not cancel"),
              })
            }
          >
            Cancel
          </button>
        </div>
      )}
    </li>
  );
}

/**
 * Scheduled mail (issue 37): what Send later holds on the server, soonest first, with Edit,
 * Reschedule, Send now and Cancel; a mail that could not be sent says why.
 */
export function ScheduledCard({ onEdit }: { onEdit: (item: HeldMail) => void }) {
  const { data, isError } = useScheduled();
  return (
    <DashboardCard
      id="scheduled-title"
      title="Scheduled"
      count={data?.length}
      data={data}
      isError={isError}
      errorText="Could not load scheduled mail."
    >
      {(data) =>
        data.length === 0 ? (
          <p className="mt-3 text-sm text-slate-500">Nothing scheduled</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100" aria-label="Scheduled mail">
            {data.map((item) => (
              <ScheduledRow key={item.id} item={item} onEdit={onEdit} />
            ))}
          </ul>
        )
      }
    </DashboardCard>
  );
}
