import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { Contact } from "../../../../../contract/contacts.ts";
import {
  allEntries,
  formatRecipient,
  joinRecipients,
  parseEntry,
  parseRecipients,
  type Recipient,
  splitEntries,
} from "./parse-recipients.ts";
import { enterAction, highlightedIndex } from "./suggestion-keys.ts";
import { useContactSuggestions } from "./use-contact-suggestions.ts";

export interface RecipientFieldProps {
  /** The input's id: the field's <label htmlFor> (To, Cc, Bcc) names it. */
  inputId: string;
  /** The comma-separated recipients the compose state keeps (contract unchanged). */
  value: string;
  onChange: (value: string) => void;
  /** An error the form decides (an empty To at Send); shown like an invalid address. */
  error?: string | null;
  placeholder?: string;
}

interface FieldState {
  chips: Recipient[];
  typing: string;
}

/** Adds entries as chips; an address already there (any case) is not added twice. */
function withChips(chips: Recipient[], entries: string[]): Recipient[] {
  const next = [...chips];
  const seen = new Set(next.filter((c) => c.valid).map((c) => c.address.toLowerCase()));
  for (const entry of entries) {
    const chip = parseEntry(entry);
    if (chip.valid && seen.has(chip.address.toLowerCase())) continue;
    if (chip.valid) seen.add(chip.address.toLowerCase());
    next.push(chip);
  }
  return next;
}

/**
 * To, Cc or Bcc (issue 36): typed addresses become chips on comma, semicolon, Enter, Tab (by the blur), or
 * a pasted list; suggestions from the person's contacts in an ARIA combobox listbox (arrow keys,
 * Enter picks, Escape closes); a malformed address is a red chip with an inline error.
 */
export function RecipientField({ inputId, value, onChange, error, placeholder }: RecipientFieldProps) {
  const ids = useId();
  const listId = `${ids}-list`;
  const errorId = `${ids}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<FieldState>(() => ({ chips: parseRecipients(value), typing: "" }));
  // The text this field last produced: a different `value` comes from outside (reset, reply).
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setState({ chips: parseRecipients(value), typing: "" });
  }
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState(-1);

  const chosen = useMemo(
    () => new Set(state.chips.filter((c) => c.valid).map((c) => c.address.toLowerCase())),
    [state.chips],
  );
  const options = useContactSuggestions(state.typing, focused, chosen);
  const open = focused && !dismissed && options.length > 0;
  // While the list is open one option is highlighted (the first until the arrows move): Enter picks it.
  const activeIndex = highlightedIndex(open, active, options.length);

  function update(next: FieldState) {
    const text = joinRecipients(next.chips, next.typing);
    setState(next);
    setSeen(text);
    if (text !== value) onChange(text);
  }

  function type(text: string) {
    setDismissed(false);
    setActive(-1);
    const { complete, rest } = splitEntries(text);
    if (complete.length === 0) update({ chips: state.chips, typing: text });
    else update({ chips: withChips(state.chips, complete), typing: rest.trimStart() });
  }

  function commit() {
    if (state.typing.trim() === "") return;
    update({ chips: withChips(state.chips, allEntries(state.typing)), typing: "" });
  }

  function pick(contact: Contact) {
    update({ chips: withChips(state.chips, [formatRecipient(contact.name, contact.address)]), typing: "" });
    setActive(-1);
    inputRef.current?.focus();
  }

  function remove(index: number) {
    update({ chips: state.chips.filter((_, i) => i !== index), typing: state.typing });
    inputRef.current?.focus();
  }

  // Escape closes the suggestions, not the dialog: the dialog listens on the document in the
  // capture phase, so this listens on the window, which comes first.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || document.activeElement !== inputRef.current) return;
      e.stopPropagation();
      setDismissed(true);
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [open]);

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (options.length === 0) return;
      e.preventDefault();
      setDismissed(false);
      const n = options.length;
      const down = e.key === "ArrowDown";
      if (activeIndex < 0) setActive(down ? 0 : n - 1);
      else setActive((activeIndex + (down ? 1 : -1) + n) % n);
    } else if (e.key === "Enter") {
      const action = enterAction(open, active, options.length, state.typing);
      const option = action.kind === "pick" ? options[action.index] : undefined;
      if (option) {
        e.preventDefault();
        pick(option);
      } else if (action.kind === "commit") {
        e.preventDefault();
        commit();
      }
    } else if (e.key === "Backspace" && e.currentTarget.value === "" && state.chips.length > 0) {
      e.preventDefault();
      update({ chips: state.chips.slice(0, -1), typing: "" });
    }
  }

  function onPaste(e: React.ClipboardEvent<HTMLInputElement>) {
    const pasted = e.clipboardData.getData("text");
    // A list copied from elsewhere often has one address a line: lines separate like commas.
    if (!pasted.includes("\n") && !pasted.includes(",") && !pasted.includes(";")) return;
    e.preventDefault();
    const text = `${state.typing}${pasted.replaceAll("\r", "").replaceAll("\n", ",")}`;
    update({ chips: withChips(state.chips, allEntries(text)), typing: "" });
  }

  const firstInvalid = state.chips.find((c) => !c.valid);
  const message = firstInvalid ? `"${firstInvalid.raw}" is not a valid email address` : (error ?? null);
  const optionId = (i: number) => `${ids}-option-${i}`;

  return (
    <div className="relative">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a click beside the chips focuses the input, which has the keyboard */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the input inside takes the keys */}
      <div
        className={`flex min-h-10 w-full cursor-text flex-wrap items-center gap-1 rounded-lg border px-2 py-1 focus-within:outline-2 focus-within:outline-brand-600 ${message ? "border-red-500" : "border-slate-300 focus-within:border-brand-600"}`}
        onClick={() => inputRef.current?.focus()}
      >
        {state.chips.map((chip, i) => (
          <span
            // Chips are identified by position: the same text can be typed twice while invalid.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={`${i}-${chip.raw}`}
            title={chip.valid ? chip.address : (message ?? undefined)}
            data-invalid={chip.valid ? undefined : "true"}
            className={`inline-flex max-w-full items-center gap-1 rounded-full py-0.5 pr-1 pl-2.5 text-sm ${chip.valid ? "bg-slate-100 text-slate-800" : "bg-red-50 text-red-800 ring-1 ring-red-400"}`}
          >
            <span className="truncate">{chip.valid && chip.name ? chip.name : chip.address}</span>
            <button
              type="button"
              aria-label={`Remove ${chip.address}`}
              onClick={(e) => {
                e.stopPropagation();
                remove(i);
              }}
              className="rounded-full px-1 leading-none text-slate-500 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              ×
            </button>
          </span>
        ))}
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          inputMode="email"
          autoComplete="off"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open && activeIndex >= 0 ? optionId(activeIndex) : undefined}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? errorId : undefined}
          placeholder={state.chips.length === 0 ? placeholder : undefined}
          className="min-w-32 flex-1 border-0 bg-transparent px-1 py-1 text-sm text-slate-900 placeholder:text-slate-400 focus:outline-none"
          value={state.typing}
          onChange={(e) => type(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            setActive(-1);
            commit();
          }}
        />
      </div>
      {open ? (
        <div
          id={listId}
          role="listbox"
          aria-label="Suggestions"
          className="absolute z-10 mt-1 max-h-64 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {options.map((c, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input takes the keys (aria-activedescendant)
            <div
              key={c.address}
              id={optionId(i)}
              role="option"
              tabIndex={-1}
              aria-selected={i === activeIndex}
              // Keeps the focus (and the typed text) in the input while the pointer picks.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(c)}
              className={`cursor-pointer px-3 py-1.5 text-sm ${i === activeIndex ? "bg-brand-50 text-brand-900" : "text-slate-800 hover:bg-slate-50"}`}
            >
              {c.name ? (
                <>
                  <span className="font-medium">{c.name}</span>{" "}
                  <span className="text-slate-500">{c.address}</span>
                </>
              ) : (
                c.address
              )}
            </div>
          ))}
        </div>
      ) : null}
      {message ? (
        <p id={errorId} role="alert" className="mt-1 text-sm text-red-700">
          {message}
        </p>
      ) : null}
    </div>
  );
}
