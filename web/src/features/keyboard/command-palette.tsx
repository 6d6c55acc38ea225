import { Dialog } from "radix-ui";
import { useId, useMemo, useState } from "react";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";

export interface Command {
  id: string;
  label: string;
  /** Extra words the filter matches. */
  keywords?: string;
  shortcut?: string;
  run: () => void;
}

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  commands: Command[];
}

/** Ctrl/Cmd+K: a filterable list of everything the dashboard can do. */
export function CommandPalette({ open, onOpenChange, commands }: Props) {
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 overflow-hidden rounded-2xl bg-white shadow-xl focus:outline-none">
          {open ? <PaletteBody commands={commands} close={() => onOpenChange(false)} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

function PaletteBody({ commands, close }: { commands: Command[]; close: () => void }) {
  const [filter, setFilter] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const shown = useMemo(() => {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    return commands.filter((c) => {
      const text = `${c.label} ${c.keywords ?? ""}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }, [commands, filter]);
  const current = Math.min(active, shown.length - 1);

  const run = (command: Command | undefined) => {
    if (!command) return;
    close();
    // After the palette has closed and given focus back, so the command can move it.
    setTimeout(command.run, 0);
  };

  return (
    <>
      <Dialog.Title className="sr-only">Command palette</Dialog.Title>
      <Dialog.Description className="sr-only">
        Type to filter, arrow keys to choose, Enter to run.
      </Dialog.Description>
      <input
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={shown[current] ? `${listId}-${shown[current].id}` : undefined}
        aria-label="Type a command"
        placeholder="Type a command…"
        value={filter}
        onChange={(e) => {
          setFilter(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((current + 1) % Math.max(1, shown.length));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((current - 1 + shown.length) % Math.max(1, shown.length));
          } else if (e.key === "Enter") {
            e.preventDefault();
            run(shown[current]);
          }
        }}
        className="w-full border-b border-slate-200 px-4 py-3 text-base focus:outline-none"
      />
      <div id={listId} role="listbox" aria-label="Commands" className="max-h-[50vh] overflow-y-auto p-2">
        {shown.map((c, i) => (
          <div
            key={c.id}
            id={`${listId}-${c.id}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === current}
            onClick={() => run(c)}
            onKeyDown={(e) => {
              if (e.key === "Enter") run(c);
            }}
            onPointerMove={() => setActive(i)}
            className={`flex cursor-pointer items-center justify-between rounded-lg px-3 py-2 text-sm ${
              i === current ? "bg-brand-50 text-brand-900" : "text-slate-800"
            }`}
          >
            <span>{c.label}</span>
            {c.shortcut ? (
              <kbd className="rounded border border-slate-300 bg-white px-1.5 font-mono text-xs text-slate-600">
                {c.shortcut}
              </kbd>
            ) : null}
          </div>
        ))}
        {shown.length === 0 ? <p className="px-3 py-2 text-sm text-slate-500">No matching commands</p> : null}
      </div>
    </>
  );
}
