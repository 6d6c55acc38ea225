import { Dialog } from "radix-ui";
import type { ReactNode } from "react";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";

interface Props {
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the feature will do, in one sentence. */
  description: string;
  children?: ReactNode;
}

/** The entry point of a feature that arrives in a later release: a titled modal, no fake data. */
export function ComingSoonDialog({ title, open, onOpenChange, description, children }: Props) {
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
            <Dialog.Close
              className="rounded px-2 text-xl leading-none text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
              aria-label="Close"
            >
              ×
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-2 text-sm text-slate-600">{description}</Dialog.Description>
          <ComingSoonNote />
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

/** A note for parts of a panel that arrive in a later release: no fake data meanwhile. */
export function ComingSoonNote() {
  return (
    <p className="mt-4 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
      This feature is coming soon. Nothing is shown here until it works with your real mail.
    </p>
  );
}
