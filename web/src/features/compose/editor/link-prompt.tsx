import { useId, useState } from "react";
import { BTN_PRIMARY, BTN_SECONDARY } from "../../reader/dialog-classes.ts";
import { linkFromInput } from "./links.ts";

export const LINK_REFUSED = "Enter a web address (http or https) or an email address.";

interface LinkPromptProps {
  initial: string;
  onApply: (href: string) => void;
  onRemove: (() => void) | null;
  onCancel: () => void;
}

/** The link address asked for by the Link button and Ctrl+K; only http(s) and mailto are accepted. */
export function LinkPrompt({ initial, onApply, onRemove, onCancel }: LinkPromptProps) {
  const id = useId();
  const [value, setValue] = useState(initial);
  const [refused, setRefused] = useState(false);
  const apply = () => {
    const href = linkFromInput(value);
    if (href === null) setRefused(true);
    else onApply(href);
  };
  return (
    <fieldset className="flex flex-wrap items-end gap-2 rounded-lg border border-slate-200 bg-slate-50 p-2">
      <legend className="sr-only">Insert link</legend>
      <div className="min-w-48 flex-1">
        <label htmlFor={`${id}-href`} className="mb-1 block text-xs font-medium text-slate-700">
          Link address
        </label>
        <input
          id={`${id}-href`}
          // biome-ignore lint/a11y/noAutofocus: the prompt opens on the person's request (Ctrl+K or Link)
          autoFocus
          type="text"
          inputMode="url"
          placeholder="https://example.com"
          value={value}
          aria-invalid={refused || undefined}
          aria-describedby={refused ? `${id}-error` : undefined}
          onChange={(e) => {
            setValue(e.target.value);
            setRefused(false);
          }}
          onKeyDown={(e) => {
            // Enter applies the link here; it must not send the mail.
            if (e.key === "Enter") {
              e.preventDefault();
              e.stopPropagation();
              apply();
            } else if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              onCancel();
            }
          }}
          className="w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 focus:border-brand-600 focus:outline-2 focus:outline-brand-600"
        />
        {refused ? (
          <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-red-700">
            {LINK_REFUSED}
          </p>
        ) : null}
      </div>
      <button type="button" className={BTN_PRIMARY} onClick={apply}>
        Apply link
      </button>
      {onRemove ? (
        <button type="button" className={BTN_SECONDARY} onClick={onRemove}>
          Remove link
        </button>
      ) : null}
      <button type="button" className={BTN_SECONDARY} onClick={onCancel}>
        Cancel link
      </button>
    </fieldset>
  );
}
