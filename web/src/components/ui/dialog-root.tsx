import { AlertDialog, Dialog } from "radix-ui";
import { useEffect, useRef } from "react";

/**
 * The open dialogs, oldest first, each with the way to close it. Radix stacks dismissable layers
 * by mount order, so a toast shown while a dialog is open becomes the top layer and takes the
 * Escape key; the toaster hands that key to the newest dialog here instead (issue 19.5).
 */
const openDialogs: Array<{ close: () => void }> = [];

/** Closes the newest open dialog; false when none is open. */
export function closeTopDialog(): boolean {
  const top = openDialogs.at(-1);
  if (!top) return false;
  top.close();
  return true;
}

/** Registers an open dialog so that Escape closes it even while a toast is the top layer. */
export function useDialogEscape(open: boolean, onOpenChange: ((open: boolean) => void) | undefined): void {
  const latest = useRef(onOpenChange);
  latest.current = onOpenChange;
  useEffect(() => {
    if (!open) return;
    const entry = { close: () => latest.current?.(false) };
    openDialogs.push(entry);
    return () => {
      const index = openDialogs.indexOf(entry);
      if (index >= 0) openDialogs.splice(index, 1);
    };
  }, [open]);
}

/** Radix Dialog.Root whose Escape works whatever toasts are up. */
export function DialogRoot(props: Dialog.DialogProps) {
  useDialogEscape(props.open ?? false, props.onOpenChange);
  return <Dialog.Root {...props} />;
}

/** Radix AlertDialog.Root whose Escape works whatever toasts are up. */
export function AlertDialogRoot(props: AlertDialog.AlertDialogProps) {
  useDialogEscape(props.open ?? false, props.onOpenChange);
  return <AlertDialog.Root {...props} />;
}
