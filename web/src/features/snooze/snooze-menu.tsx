import { Dialog } from "radix-ui";
import { useId, useState } from "react";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { toast } from "../../components/ui/toast-store.ts";
import { BTN_PRIMARY, BTN_SECONDARY, OVERLAY } from "../reader/dialog-classes.ts";
import { browserTimeZone, useSnoozeActions } from "./snooze-api.ts";
import { formatWake, localInputValue, pickedTimeProblem, SNOOZE_PRESETS } from "./snooze-presets.ts";

const CHOICE =
  "flex w-full items-baseline justify-between gap-6 rounded-lg px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600";

export interface SnoozeMenuProps {
  conversationId: string;
  /** "snooze" (POST) or "change" (PATCH, the Snoozed view's "Change time"). */
  kind?: "snooze" | "change";
  /** After the server took it: the reader closes, Inbox Zero moves on. */
  onSnoozed?: (until: Date) => void;
  /** Controlled from outside (the list's `b` key); without it the trigger button opens it. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The trigger's text ("Snooze", or "Change time"); no trigger when null. */
  label?: string | null;
  triggerClassName?: string;
}

/**
 * The `Snooze` control (issue 37): a small menu of the four presets, each with its time in the
 * person's zone, and "Pick date & time", whose picker says what is wrong with a time before
 * sending it. A refusal from the server is told in words ("We could not snooze this: ...").
 * A dialog rather than a popup menu, so the list's `b` key opens the same control.
 */
export function SnoozeMenu({
  conversationId,
  kind = "snooze",
  onSnoozed,
  open,
  onOpenChange,
  label = "Snooze",
  triggerClassName = BTN_SECONDARY,
}: SnoozeMenuProps) {
  const actions = useSnoozeActions();
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (open === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  };
  const [picking, setPicking] = useState(false);
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const timeZone = browserTimeZone();
  const now = new Date();

  async function choose(until: Date): Promise<void> {
    try {
      await actions.mutateAsync({ kind, conversationId, until });
      setOpen(false);
      toast({
        title: kind === "snooze" ? "Snoozed" : "Snooze time changed",
        description: `Until ${formatWake(until, timeZone)}`,
      });
      onSnoozed?.(until);
    } catch (err) {
      const reason = err instanceof Error ? err.message : "unknown error";
      setProblem(`We could not snooze this: ${reason}`);
    }
  }

  return (
    <DialogRoot
      open={isOpen}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setPicking(false);
          setProblem(null);
          setValue(localInputValue(new Date(Date.now() + 60 * 60 * 1000)));
        }
      }}
    >
      {label === null ? null : (
        <Dialog.Trigger className={triggerClassName} disabled={actions.isPending}>
          {label}
        </Dialog.Trigger>
      )}
      <Dialog.Portal>
        <Dialog.Overlay className={OVERLAY} />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(22rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-4 shadow-xl">
          <Dialog.Title className="px-3 font-semibold text-slate-900">
            {kind === "snooze" ? "Snooze until" : "Change snooze time"}
          </Dialog.Title>
          <Dialog.Description className="sr-only">
            The mail leaves your inbox and comes back then.
          </Dialog.Description>
          <ul className="mt-2" aria-label="Snooze options">
            {SNOOZE_PRESETS.map((preset) => {
              const at = preset.at(now, timeZone);
              return (
                <li key={preset.label}>
                  <button
                    type="button"
                    className={CHOICE}
                    disabled={actions.isPending}
                    onClick={() => void choose(at)}
                  >
                    <span>{preset.label}</span>
                    <span className="text-xs text-slate-500">{formatWake(at, timeZone, now)}</span>
                  </button>
                </li>
              );
            })}
            <li>
              <button
                type="button"
                className={CHOICE}
                aria-expanded={picking}
                onClick={() => setPicking((p) => !p)}
              >
                Pick date &amp; time
              </button>
            </li>
          </ul>
          {picking ? (
            <form
              className="mt-2 px-3"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                const found = pickedTimeProblem(value, new Date());
                setProblem(found);
                if (!found) void choose(new Date(value));
              }}
            >
              <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
                Date and time
              </label>
              <input
                id={inputId}
                type="datetime-local"
                value={value}
                onChange={(event) => {
                  setValue(event.target.value);
                  setProblem(null);
                }}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? errorId : undefined}
                className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
              />
              <div className="mt-3 flex justify-end">
                <button type="submit" className={BTN_PRIMARY} disabled={actions.isPending}>
                  {kind === "snooze" ? "Snooze" : "Change time"}
                </button>
              </div>
            </form>
          ) : null}
          {problem ? (
            <p id={errorId} role="alert" className="mt-2 px-3 text-sm text-red-700">
              {problem}
            </p>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}
