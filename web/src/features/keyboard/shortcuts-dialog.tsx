import { Dialog } from "radix-ui";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { SHORTCUTS } from "./shortcuts.ts";

/** '?': the keyboard map. */
export function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-slate-900">Keyboard shortcuts</Dialog.Title>
            <Dialog.Close
              className="rounded px-2 text-xl leading-none text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
              aria-label="Close"
            >
              ×
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            Single keys work anywhere on the dashboard except while you type.
          </Dialog.Description>
          <dl className="mt-4 divide-y divide-slate-100">
            {SHORTCUTS.map((s) => (
              <div key={s.action} className="flex items-center justify-between gap-4 py-2">
                <dt className="text-sm text-slate-800">{s.action}</dt>
                <dd className="flex gap-1">
                  {s.keys.map((k) => (
                    <kbd
                      key={k}
                      className="min-w-7 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-mono text-xs text-slate-800"
                    >
                      {k}
                    </kbd>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}
