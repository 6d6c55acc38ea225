import { Dialog } from "radix-ui";
import type { ReactNode } from "react";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { OVERLAY, SHEET_CONTENT } from "./dialog-classes.ts";

const CLOSE =
  "shrink-0 rounded-lg px-2 py-1 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600";

/**
 * A dashboard panel as a sheet: full screen on phones, a centred dialog from sm up, with a title,
 * a one-line description, a close button and a scrolling body. The body mounts only while open,
 * so a closed panel asks the server for nothing.
 */
export function SheetDialog({
  open,
  onOpenChange,
  title,
  description,
  bodyClassName = "",
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  bodyClassName?: string;
  children: () => ReactNode;
}) {
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={OVERLAY} />
        <Dialog.Content className={`${SHEET_CONTENT} sm:max-w-2xl`}>
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-4 pt-4 pb-3 sm:px-6">
            <div>
              <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
              <Dialog.Description className="mt-0.5 text-sm text-slate-600">{description}</Dialog.Description>
            </div>
            <Dialog.Close aria-label="Close" className={CLOSE}>
              ×
            </Dialog.Close>
          </div>
          <div className={`min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6 ${bodyClassName}`}>
            {open ? children() : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}
