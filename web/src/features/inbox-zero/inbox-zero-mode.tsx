import { Dialog } from "radix-ui";
import { useEffect, useRef } from "react";
import type { InboxZeroCard } from "../../../../contract/inbox-zero.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { Pictogram } from "../../components/ui/pictogram.tsx";
import { formatCount } from "../inbox/format.ts";
import { openModalCount } from "../keyboard/shortcuts.ts";
import { useBackgroundUnsubscribing } from "../mail-actions/unsubscribe-store.ts";
import { useEmailActions } from "../mail-actions/use-email-actions.ts";
import { useMediaQuery } from "../panels/use-media-query.ts";
import { SnoozeMenu } from "../snooze/snooze-menu.tsx";
import { ACTION_HINTS, ACTION_LABEL, type InboxZeroAction, keyCommand } from "./actions.ts";
import { StackedCard, SwipeCard, type SwipeHandle } from "./swipe-card.tsx";
import { useInboxZeroQueue } from "./use-inbox-zero-queue.ts";

export const REDUCED_MOTION_QUERY = "(prefers-reduced-motion: reduce)";

const HINT_BUTTON =
  "flex min-w-0 flex-col items-center gap-0.5 rounded-xl border border-white/20 bg-white/10 px-1 py-2 text-xs font-medium text-white hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-50 sm:text-sm";

/**
 * Inbox Zero mode (spec sections 2 and 4): a full-screen card stack of the next 10 unread emails
 * with 'N emails to go'. Swipe (mouse, touch or pen) or press a key to archive, delete, star or
 * flag; undo reverses the last action. `onFinished` when no unread mail is left (the dashboard
 * celebrates), `onClose` when the person closes it or a recheck fails.
 */
export function InboxZeroMode({ onClose, onFinished }: { onClose: () => void; onFinished: () => void }) {
  const queue = useInboxZeroQueue({ onEmpty: onFinished, onFailed: onClose });
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const top = useRef<SwipeHandle>(null);
  const current = queue.stack[0];

  const run = (action: InboxZeroAction) => {
    if (!current) return;
    if (top.current) top.current.fly(action);
    else queue.act(action);
  };

  // Keys reach the mode wherever focus is (a button that just got disabled drops it to the body);
  // not while another dialog (the smart archive suggestion) is open above it.
  const onKey = useRef<(event: KeyboardEvent) => void>(() => undefined);
  onKey.current = (event) => {
    if (event.defaultPrevented || event.isComposing || openModalCount() > 1) return;
    if (event.key === "Enter" && event.target instanceof HTMLElement && event.target.closest("button"))
      return;
    const command = keyCommand(event);
    if (!command) return;
    event.preventDefault();
    if (command === "undo") void queue.undo();
    else run(command);
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey.current(event);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);

  return (
    <DialogRoot open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Content
          className="fixed inset-0 z-50 flex h-dvh w-full flex-col bg-slate-900 text-white focus:outline-none"
          aria-describedby="inbox-zero-help"
        >
          <header className="flex items-center justify-between gap-3 px-4 pt-4 sm:px-6">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold">Inbox Zero Mode</Dialog.Title>
              <p className="text-sm text-slate-300" aria-live="polite" data-testid="inbox-zero-remaining">
                {queue.phase === "loading"
                  ? "Loading your unread emails…"
                  : `${formatCount(queue.remaining)} ${queue.remaining === 1 ? "email" : "emails"} to go`}
              </p>
            </div>
            <Dialog.Close
              aria-label="Close Inbox Zero mode"
              className="rounded-lg px-3 py-1 text-2xl leading-none text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-white"
            >
              ×
            </Dialog.Close>
          </header>

          <div className="relative mx-auto flex w-full max-w-md flex-1 items-center px-4 py-4">
            <div className="relative h-[min(26rem,58dvh)] w-full" data-testid="inbox-zero-stack">
              {queue.stack
                .map((card, depth) =>
                  depth === 0 ? (
                    <SwipeCard
                      key={card.id}
                      card={card}
                      handle={top}
                      reducedMotion={reducedMotion}
                      onCommit={queue.act}
                    />
                  ) : (
                    <StackedCard key={card.id} card={card} depth={depth} />
                  ),
                )
                .reverse()}
              {queue.phase === "empty" ? (
                <EmptyQueue />
              ) : queue.stack.length === 0 ? (
                <p
                  className="absolute inset-0 flex items-center justify-center text-center text-slate-300"
                  role="status"
                >
                  {queue.phase === "rechecking" ? "Checking for more unread emails…" : "Loading…"}
                </p>
              ) : null}
            </div>
          </div>

          <footer
            className="mx-auto w-full max-w-md px-4 pb-[max(1rem,env(safe-area-inset-bottom))]"
            hidden={queue.phase === "empty"}
          >
            <p id="inbox-zero-help" className="mb-2 text-center text-xs text-slate-400">
              Swipe the card or use the keys. Z undoes the last action, Esc closes.
            </p>
            {current ? <UnsubscribeHint email={current} /> : null}
            <div className="grid grid-cols-4 gap-2">
              {ACTION_HINTS.map((hint) => (
                <button
                  key={hint.action}
                  type="button"
                  className={HINT_BUTTON}
                  disabled={!current || queue.phase !== "active"}
                  onClick={() => run(hint.action)}
                  aria-keyshortcuts={hint.key === "#" ? "#" : hint.key}
                  title={`${hint.direction} or press ${hint.key}`}
                >
                  <span aria-hidden="true" className="text-lg leading-none">
                    {hint.arrow}
                  </span>
                  <span>{hint.label}</span>
                  <kbd className="rounded bg-white/15 px-1 font-mono text-[0.7rem]">{hint.key}</kbd>
                </button>
              ))}
            </div>
            <div className="mt-2 flex items-center justify-center gap-2 text-sm">
              {current && queue.phase === "active" ? (
                <SnoozeMenu
                  key={current.id}
                  conversationId={current.conversationId}
                  onSnoozed={() => queue.drop(current.id)}
                  triggerClassName="rounded-lg px-3 py-2 font-medium text-white underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-white disabled:opacity-40"
                />
              ) : null}
              <button
                type="button"
                className="rounded-lg px-3 py-2 font-medium text-white underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-white disabled:opacity-40"
                disabled={!queue.canUndo}
                onClick={() => void queue.undo()}
                aria-keyshortcuts="z"
              >
                Undo{queue.lastAction ? ` (${ACTION_LABEL[queue.lastAction]})` : ""}
              </button>
            </div>
          </footer>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

/**
 * Opened with nothing in the queue (unread mail left is all starred or flagged in the mode before):
 * the mode says so and offers the way back, instead of celebrating what was not done.
 */
function EmptyQueue() {
  return (
    <div
      className="absolute inset-0 flex flex-col items-center justify-center gap-3 rounded-2xl border border-white/15 bg-white/5 p-6 text-center"
      role="status"
      data-testid="inbox-zero-empty"
    >
      <Pictogram name="check-circle" className="h-12 w-12 text-emerald-300" />
      <h3 className="text-xl font-semibold">Nothing to process</h3>
      <p className="text-sm text-slate-300">
        No unread emails are waiting. Emails you starred or flagged here stay unread in your inbox, but they
        are not shown again.
      </p>
      <Dialog.Close className="mt-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white">
        Back to the dashboard
      </Dialog.Close>
    </div>
  );
}

/** Unsubscribe from the current card's sender in the background (spec section 4). */
function UnsubscribeHint({ email }: { email: InboxZeroCard }) {
  const actions = useEmailActions();
  const busy = useBackgroundUnsubscribing(email.fromAddress);
  if (!email.canUnsubscribe) return null;
  return (
    <div className="mb-2 flex justify-center">
      <button
        type="button"
        className="rounded-lg border border-white/20 px-3 py-1 text-xs text-slate-200 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white disabled:opacity-60"
        disabled={busy}
        onClick={() => void actions.unsubscribe(email)}
      >
        {busy ? "Processing..." : "Unsubscribe"}
      </button>
    </div>
  );
}
