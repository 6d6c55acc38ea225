import { Popover } from "radix-ui";
import { useId, useState } from "react";
import { BTN_PRIMARY, BTN_SECONDARY } from "../../reader/dialog-classes.ts";
import { pickedTime, sendPresets, toLocalInput } from "./schedule-times.ts";

const ITEM =
  "flex w-full items-baseline justify-between gap-3 rounded-lg px-2 py-2 text-left text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600";

/**
 * Compose's "Send later" (issue 37): the presets with their dates, or a date and time picked in
 * the person's zone. Choosing one schedules the mail (`onPick`); a time in the past or over a year
 * ahead is refused here with the server's words.
 */
export function SendLaterMenu({
  disabled,
  label = "Send later",
  onPick,
}: {
  disabled?: boolean;
  label?: string;
  onPick: (at: Date) => void;
}) {
  const [open, setOpen] = useState(false);
  const [custom, setCustom] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const now = new Date();
  const pick = (at: Date) => {
    setOpen(false);
    onPick(at);
  };
  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setError(null);
          setCustom(toLocalInput(new Date(Date.now() + 60 * 60_000)));
        }
      }}
    >
      <Popover.Trigger type="button" className={BTN_SECONDARY} disabled={disabled}>
        {label}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          aria-label="Send later"
          className="z-50 w-[min(20rem,calc(100vw-1rem))] rounded-xl border border-slate-200 bg-white p-2 shadow-lg focus:outline-none"
        >
          <ul aria-label="When to send">
            {sendPresets(now).map((preset) => (
              <li key={preset.label}>
                <button type="button" className={ITEM} onClick={() => pick(preset.at)}>
                  <span className="font-medium text-slate-900">{preset.label}</span>
                  <span className="text-xs text-slate-600">{preset.date}</span>
                </button>
              </li>
            ))}
          </ul>
          <div className="mt-1 border-t border-slate-100 px-2 pt-2">
            <label htmlFor={inputId} className="block text-sm font-medium text-slate-900">
              Pick date &amp; time
            </label>
            <input
              id={inputId}
              type="datetime-local"
              value={custom}
              onChange={(e) => {
                setCustom(e.target.value);
                setError(null);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
            />
            {error ? (
              <p id={errorId} role="alert" className="mt-1 text-xs text-red-700">
                {error}
              </p>
            ) : null}
            <button
              type="button"
              className={`${BTN_PRIMARY} mt-2 w-full`}
              onClick={() => {
                const picked = pickedTime(custom, new Date());
                if ("error" in picked) setError(picked.error);
                else pick(picked.at);
              }}
            >
              Schedule send
            </button>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
