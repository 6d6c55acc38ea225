import { useCallback, useEffect, useRef, useState } from "react";
import { INBOX_ZERO_STACK_SIZE, type InboxZeroCard } from "../../../../contract/inbox-zero.ts";
import { useQueueRemovals } from "../mail-actions/queue-events.ts";
import { isBackgroundUnsubscribing } from "../mail-actions/unsubscribe-store.ts";
import { useEmailActions } from "../mail-actions/use-email-actions.ts";
import type { InboxZeroAction } from "./actions.ts";
import { fetchQueue, markProcessed, unmarkProcessed } from "./inbox-zero-api.ts";

/** How many emails one read of the queue holds; the stack shows the first 10 of them. */
const QUEUE_READ = 50;

/** "empty": the first read found nothing to do (the mode's own empty state, no celebration). */
export type QueuePhase = "loading" | "active" | "rechecking" | "empty";

interface QueueState {
  phase: QueuePhase;
  /** The emails still to go in this read of the queue, the current one first. */
  cards: InboxZeroCard[];
  /** 'N emails to go': all of them, on the server too. */
  remaining: number;
  /** The last action, for undo (one level). */
  last: { card: InboxZeroCard; action: InboxZeroAction; done: Promise<boolean> } | null;
}

const sender = (card: Pick<InboxZeroCard, "fromAddress">) => card.fromAddress.trim().toLowerCase();

/**
 * Inbox Zero mode's queue (spec section 4). Start reads the unread, not-yet-processed mail; each
 * action is the reader's own (useEmailActions: the provider write, smart archive, background
 * unsubscribe) and then marks the email processed on the server. At the end of the queue it reads
 * again and goes on with what is still unread; `onEmpty` when nothing is left after this opening's
 * actions (an empty first read is the "empty" phase instead); `onFailed` after a failed read
 * (logged). Unmounting the mode clears the queue.
 */
export function useInboxZeroQueue(handlers: { onEmpty: () => void; onFailed: () => void }) {
  const actions = useEmailActions();
  const [state, setState] = useState<QueueState>({ phase: "loading", cards: [], remaining: 0, last: null });
  const current = useRef(state);
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const pending = useRef(new Set<Promise<unknown>>());
  // Left out for the rest of this session: emails dropped from the queue, senders being unsubscribed.
  const dropped = useRef({ ids: new Set<string>(), senders: new Set<string>() });
  // Bumped by undo (and unmount): a read that started before must not replace the queue.
  const epoch = useRef(0);

  const update = useCallback((next: (s: QueueState) => QueueState) => {
    current.current = next(current.current);
    setState(current.current);
  }, []);

  const read = useCallback(
    async (phase: QueuePhase) => {
      const started = ++epoch.current;
      update((s) => ({ ...s, phase }));
      try {
        // Marks and writes still under way would make the server answer with what is done.
        await Promise.allSettled([...pending.current]);
        const answer = await fetchQueue(QUEUE_READ);
        if (epoch.current !== started) return;
        const skip = dropped.current;
        const fresh = answer.emails.filter((e) => !skip.ids.has(e.id) && !skip.senders.has(sender(e)));
        if (fresh.length === 0) {
          // Opened with nothing to do: nothing was handled, so there is nothing to celebrate.
          if (phase === "loading") {
            update(() => ({ phase: "empty", cards: [], remaining: 0, last: null }));
            return;
          }
          update((s) => ({ ...s, cards: [], remaining: 0, last: null }));
          handlersRef.current.onEmpty();
          return;
        }
        const skipped = answer.emails.length - fresh.length;
        update(() => ({
          phase: "active",
          cards: fresh,
          remaining: Math.max(fresh.length, answer.remaining - skipped),
          last: phase === "rechecking" ? current.current.last : null,
        }));
      } catch (err) {
        if (epoch.current !== started) return;
        console.error("Inbox Zero: reading the queue failed; closing the mode", err);
        handlersRef.current.onFailed();
      }
    },
    [update],
  );

  useEffect(() => {
    void read("loading");
    return () => {
      epoch.current++;
    };
  }, [read]);

  const track = (promise: Promise<unknown>) => {
    pending.current.add(promise);
    void promise.finally(() => pending.current.delete(promise));
  };

  /** Drops emails from the queue (smart archive, a sender being unsubscribed). */
  const drop = useCallback(
    (ids: ReadonlySet<string>, senders: ReadonlySet<string> = new Set()) => {
      for (const id of ids) dropped.current.ids.add(id);
      for (const s of senders) dropped.current.senders.add(s);
      const s = current.current;
      const kept = s.cards.filter((c) => !ids.has(c.id) && !senders.has(sender(c)));
      if (kept.length === s.cards.length) return;
      update((prev) => ({
        ...prev,
        cards: kept,
        remaining: Math.max(kept.length, prev.remaining - (prev.cards.length - kept.length)),
      }));
      if (kept.length === 0 && s.phase === "active") void read("rechecking");
    },
    [update, read],
  );

  useQueueRemovals((ids) => drop(new Set(ids)));

  function perform(card: InboxZeroCard, action: InboxZeroAction): Promise<boolean> {
    switch (action) {
      case "archive":
        return actions.archive(card);
      case "delete":
        return actions.remove(card);
      case "star":
        return actions.setStarred(card, true);
      case "flag":
        return actions.setFlagged(card, true);
    }
  }

  /** Archive, delete, star or flag the current email, then mark it processed. */
  function act(action: InboxZeroAction): void {
    const s = current.current;
    const card = s.cards[0];
    if (!card || s.phase !== "active") return;
    // Spec section 4: archiving mail of a sender being unsubscribed takes the sender's mail out.
    const unsubscribing = action === "archive" && isBackgroundUnsubscribing(card.fromAddress);
    if (unsubscribing) dropped.current.senders.add(sender(card));
    const rest = s.cards.slice(1).filter((c) => !unsubscribing || sender(c) !== sender(card));
    const done = perform(card, action).then(async (ok) => {
      if (!ok) {
        // The provider refused (the actions showed the 'Error' toast): the email is back on top.
        update((prev) => ({
          ...prev,
          cards: [card, ...prev.cards.filter((c) => c.id !== card.id)],
          remaining: prev.remaining + 1,
          last: prev.last?.card.id === card.id ? null : prev.last,
        }));
        return false;
      }
      try {
        await markProcessed(card.id);
      } catch (err) {
        console.error("Inbox Zero: could not mark the email processed", err);
      }
      return true;
    });
    track(done);
    update((prev) => ({
      ...prev,
      cards: rest,
      remaining: Math.max(rest.length, prev.remaining - 1 - (prev.cards.length - 1 - rest.length)),
      last: { card, action, done },
    }));
    if (rest.length === 0) void read("rechecking");
  }

  /** Undoes the last action: the email is back on top, its change reversed on the provider. */
  async function undo(): Promise<void> {
    const last = current.current.last;
    if (!last) return;
    epoch.current++;
    const { card, action, done } = last;
    update((prev) => ({
      phase: "active",
      cards: [card, ...prev.cards.filter((c) => c.id !== card.id)],
      remaining: prev.remaining + 1,
      last: null,
    }));
    const reversal = (async () => {
      if (!(await done)) return;
      const ok =
        action === "archive" || action === "delete"
          ? await actions.restore(card)
          : action === "star"
            ? await actions.setStarred(card, card.isStarred)
            : await actions.setFlagged(card, card.isFlagged);
      if (!ok) return;
      try {
        await unmarkProcessed(card.id);
      } catch (err) {
        console.error("Inbox Zero: could not undo the processed mark", err);
      }
    })();
    track(reversal);
    await reversal;
  }

  return {
    phase: state.phase,
    stack: state.cards.slice(0, INBOX_ZERO_STACK_SIZE),
    remaining: state.remaining,
    canUndo: state.last !== null,
    lastAction: state.last?.action ?? null,
    act,
    undo,
    /** Takes one email out of the queue (snoozed from the mode: it is no longer in the inbox). */
    drop: (id: string) => drop(new Set([id])),
  };
}
