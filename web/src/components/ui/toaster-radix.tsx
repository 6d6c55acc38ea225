import { Toast } from "radix-ui";
import { closeTopDialog } from "./dialog-root.tsx";
import { dismissToast, useToasts } from "./toast-store.ts";

/** Spec section 9: 5000 ms default, swipe right past 50 px, F8 focuses the notification area. */
export default function RadixToaster() {
  const toasts = useToasts();
  return (
    <Toast.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <Toast.Root
          key={t.id}
          open={t.open}
          {...(t.durationMs === undefined ? {} : { duration: t.durationMs })}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          onEscapeKeyDown={(event) => {
            // A toast shown over a dialog is the top dismissable layer: Escape closes the dialog
            // (the toast keeps its time), unless the key was pressed inside the toast itself.
            const target = event.target;
            if (target instanceof Element && target.closest("[data-toast-viewport]")) return;
            if (closeTopDialog()) event.preventDefault();
          }}
          data-variant={t.variant ?? "default"}
          className={`grid grid-cols-[1fr_auto_auto] items-start gap-2 rounded-lg border p-4 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:animate-out ${
            t.variant === "destructive"
              ? "border-red-700 bg-red-600 text-white"
              : "border-slate-200 bg-white text-slate-900"
          }`}
        >
          <div>
            <Toast.Title className="text-sm font-semibold">{t.title}</Toast.Title>
            {t.description ? (
              <Toast.Description className="mt-1 text-sm opacity-90">{t.description}</Toast.Description>
            ) : null}
          </div>
          {t.action ? (
            <Toast.Action
              altText={t.action.altText}
              onClick={t.action.onClick}
              className="rounded border border-current px-2 py-0.5 text-sm font-semibold hover:bg-black/5"
            >
              {t.action.label}
            </Toast.Action>
          ) : null}
          <Toast.Close
            aria-label="Close"
            className="rounded px-1 text-lg leading-none opacity-70 hover:opacity-100"
          >
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        hotkey={["F8"]}
        data-toast-viewport=""
        className="fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col gap-2 p-4 outline-none"
      />
    </Toast.Provider>
  );
}
