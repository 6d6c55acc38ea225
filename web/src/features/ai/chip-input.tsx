import { useId, useState } from "react";
import { BTN_SECONDARY } from "../reader/dialog-classes.ts";
import { addChip } from "./chips.ts";
import { FIELD, LABEL } from "./form-classes.ts";

export interface ChipInputProps {
  label: string;
  items: string[];
  onChange: (items: string[]) => void;
  placeholder?: string;
  hint?: string;
}

/** A list of short texts: Enter (or Add) adds the typed item; each chip can be removed. */
export function ChipInput({ label, items, onChange, placeholder, hint }: ChipInputProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [note, setNote] = useState("");

  const add = () => {
    const next = addChip(items, text);
    if (next) {
      onChange(next);
      setText("");
      setNote("");
    } else if (text.trim()) {
      setNote(`"${text.trim()}" is already in the list.`);
    }
  };

  return (
    <div>
      <label htmlFor={`${id}-input`} className={LABEL}>
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mb-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <div className="flex gap-2">
        <input
          id={`${id}-input`}
          type="text"
          className={FIELD}
          value={text}
          placeholder={placeholder}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setNote("");
          }}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            // Enter adds an item; it must not submit the form.
            e.preventDefault();
            add();
          }}
        />
        <button type="button" className={BTN_SECONDARY} onClick={add} aria-label={`Add to ${label}`}>
          Add
        </button>
      </div>
      <p className="text-xs text-amber-800" aria-live="polite">
        {note}
      </p>
      {items.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-1.5" aria-label={label}>
          {items.map((item) => (
            <li
              key={item}
              className="inline-flex max-w-full items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-3 text-sm text-brand-900 ring-1 ring-brand-100 ring-inset"
            >
              <span className="min-w-0 truncate">{item}</span>
              <button
                type="button"
                aria-label={`Remove ${item}`}
                className="rounded-full px-1.5 leading-none text-brand-800 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
                onClick={() => onChange(items.filter((i) => i !== item))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
