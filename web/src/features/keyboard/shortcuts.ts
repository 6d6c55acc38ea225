import { useEffect, useRef } from "react";

/** The keyboard map, as the shortcuts dialog lists it. */
export const SHORTCUTS: ReadonlyArray<{ keys: string[]; action: string }> = [
  { keys: ["j"], action: "Next email" },
  { keys: ["k"], action: "Previous email" },
  { keys: ["Enter", "o"], action: "Open email" },
  { keys: ["e"], action: "Archive" },
  { keys: ["s"], action: "Star or unstar" },
  { keys: ["b"], action: "Snooze" },
  { keys: ["r"], action: "Reply" },
  { keys: ["c"], action: "Compose" },
  { keys: ["#"], action: "Delete" },
  { keys: ["u"], action: "Back to the list" },
  { keys: ["/"], action: "Search" },
  { keys: ["?"], action: "Show keyboard shortcuts" },
  { keys: ["Ctrl", "K"], action: "Command palette (⌘K on a Mac)" },
];

export type ShortcutAction =
  | "next"
  | "previous"
  | "open"
  | "archive"
  | "star"
  | "snooze"
  | "reply"
  | "compose"
  | "delete"
  | "back"
  | "search"
  | "help"
  | "palette";

const KEY_ACTIONS: Record<string, ShortcutAction> = {
  j: "next",
  k: "previous",
  Enter: "open",
  o: "open",
  e: "archive",
  s: "star",
  b: "snooze",
  r: "reply",
  c: "compose",
  "#": "delete",
  u: "back",
  "/": "search",
  "?": "help",
};

/** Actions that change an email: their latency is measured from the key press. */
const TRIAGE: ReadonlySet<ShortcutAction> = new Set(["archive", "star", "delete"]);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  const type = (target as HTMLInputElement).type;
  return !["checkbox", "radio", "button", "submit", "reset"].includes(type);
}

/** Open modal dialogs (Radix marks them data-state="open"); floating panels are not modal. */
export function openModalCount(): number {
  return document.querySelectorAll(
    '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]',
  ).length;
}

export interface ShortcutOptions {
  /** Called with the action; return false when it did not apply (the key then does its usual thing). */
  onAction: (action: ShortcutAction, event: KeyboardEvent) => boolean;
  /** How many open modals still let the mail keys through (1 while the reader is open). */
  allowedModals: number;
}

/** Gmail-style single keys on the dashboard, plus Ctrl/Cmd+K anywhere. */
export function useShortcuts(options: ShortcutOptions): void {
  const ref = useRef(options);
  ref.current = options;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const { onAction, allowedModals } = ref.current;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") {
        if (onAction("palette", event)) event.preventDefault();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      const action = KEY_ACTIONS[event.key];
      if (!action) return;
      // Enter on a focused button or link keeps its own meaning.
      if (action === "open" && event.key === "Enter" && event.target instanceof HTMLElement) {
        if (event.target.closest("button, a, [role='button'], [role='option']")) return;
      }
      if (openModalCount() > allowedModals) return;
      if (TRIAGE.has(action)) performance.mark("mw:action-start");
      if (onAction(action, event)) event.preventDefault();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
