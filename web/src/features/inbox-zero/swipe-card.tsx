import { type Ref, useImperativeHandle, useRef } from "react";
import { BUCKET_TITLES } from "../../../../contract/buckets.ts";
import type { InboxZeroCard } from "../../../../contract/inbox-zero.ts";
import { formatListDate, senderName } from "../inbox/format.ts";
import { ACTION_HINTS, type InboxZeroAction, swipeAction } from "./actions.ts";
import { summaryAddsToSnippet } from "./summary.ts";

export interface SwipeHandle {
  /** Sends the card off in the action's direction, then commits the action. */
  fly: (action: InboxZeroAction) => void;
}

const FLY_MS = 220;
const SNAP_MS = 160;

function exitTransform(
  action: InboxZeroAction,
  width: number,
  height: number,
  dx: number,
  dy: number,
): string {
  switch (action) {
    case "archive":
      return `translate(${width * 1.4}px, ${dy}px) rotate(18deg)`;
    case "delete":
      return `translate(${-width * 1.4}px, ${dy}px) rotate(-18deg)`;
    case "star":
      return `translate(${dx}px, ${-height * 1.6}px)`;
    case "flag":
      return `translate(${dx}px, ${height * 1.6}px)`;
  }
}

const URGENCY_CLASS: Record<string, string> = {
  high: "bg-red-100 text-red-800",
  medium: "bg-amber-100 text-amber-800",
};

/**
 * What a card shows: sender, subject, snippet, account, bucket, AI summary (when it says more than
 * the snippet) and urgency.
 */
function CardFace({ card }: { card: InboxZeroCard }) {
  const urgency = card.urgency?.toLowerCase() ?? null;
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <p className="min-w-0 truncate font-semibold text-slate-900" data-testid="card-sender">
          {senderName(card)}
        </p>
        <time className="shrink-0 text-xs text-slate-500" dateTime={card.date}>
          {formatListDate(card.date)}
        </time>
      </div>
      <h3 className="mt-1 line-clamp-2 text-base font-semibold text-slate-900 sm:text-lg">
        {card.subject || "(no subject)"}
      </h3>
      <p className="mt-2 line-clamp-3 text-sm text-slate-600">{card.snippet}</p>
      {summaryAddsToSnippet(card.summary, card.snippet) ? (
        <div className="mt-3 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
          <span className="font-semibold">AI summary: </span>
          {card.summary}
        </div>
      ) : null}
      <div className="mt-auto flex flex-wrap items-center gap-1.5 pt-3 text-xs">
        <span
          className="max-w-full truncate rounded-full bg-slate-100 px-2 py-0.5 text-slate-700"
          title="Account"
        >
          {card.accountEmail}
        </span>
        {card.bucket ? (
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-700">
            {BUCKET_TITLES[card.bucket]}
          </span>
        ) : null}
        {urgency ? (
          <span
            className={`rounded-full px-2 py-0.5 ${URGENCY_CLASS[urgency] ?? "bg-slate-100 text-slate-700"}`}
          >
            Urgency: {urgency}
          </span>
        ) : null}
      </div>
    </>
  );
}

const CARD =
  "absolute inset-0 flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white p-4 shadow-lg sm:p-5";

/** A card under the top one: only its place in the stack, no input. */
export function StackedCard({ card, depth }: { card: InboxZeroCard; depth: number }) {
  const shown = Math.min(depth, 3);
  return (
    <div
      className={CARD}
      data-testid="inbox-zero-card"
      aria-hidden="true"
      style={{
        transform: `translateY(${shown * 10}px) scale(${1 - shown * 0.04})`,
        opacity: depth > 3 ? 0 : 1,
        zIndex: 20 - depth,
      }}
    >
      <CardFace card={card} />
    </div>
  );
}

/**
 * The top card. Pointer events (mouse, touch and pen) drag it; released past the threshold it
 * flies off and the action is committed. Dragging writes the transform straight to the element
 * (no React render per move); the exits are compositor animations, skipped under reduced motion.
 */
export function SwipeCard({
  card,
  onCommit,
  reducedMotion,
  handle,
}: {
  card: InboxZeroCard;
  onCommit: (action: InboxZeroAction) => void;
  reducedMotion: boolean;
  handle: Ref<SwipeHandle>;
}) {
  const el = useRef<HTMLElement>(null);
  const label = useRef<HTMLDivElement>(null);
  const drag = useRef<{ id: number; x: number; y: number; dx: number; dy: number } | null>(null);
  const frame = useRef(0);
  const leaving = useRef(false);

  const showHint = (action: InboxZeroAction | null) => {
    const node = label.current;
    if (!node) return;
    const hint = ACTION_HINTS.find((h) => h.action === action);
    node.textContent = hint ? hint.label : "";
    node.dataset.action = action ?? "";
    node.style.opacity = hint ? "1" : "0";
  };

  const fly = (action: InboxZeroAction) => {
    if (leaving.current) return;
    leaving.current = true;
    const node = el.current;
    showHint(action);
    if (!node || reducedMotion || typeof node.animate !== "function") {
      onCommit(action);
      return;
    }
    const { dx, dy } = drag.current ?? { dx: 0, dy: 0 };
    const rect = node.getBoundingClientRect();
    const animation = node.animate(
      [
        { transform: node.style.transform || "none", opacity: 1 },
        { transform: exitTransform(action, rect.width, rect.height, dx, dy), opacity: 0 },
      ],
      { duration: FLY_MS, easing: "cubic-bezier(0.4, 0, 1, 1)", fill: "forwards" },
    );
    animation.finished.then(
      () => onCommit(action),
      () => onCommit(action),
    );
  };

  useImperativeHandle(handle, () => ({ fly }));

  const place = () => {
    frame.current = 0;
    const node = el.current;
    const d = drag.current;
    if (!node || !d) return;
    node.style.transform = `translate(${d.dx}px, ${d.dy}px) rotate(${d.dx * 0.04}deg)`;
    showHint(swipeAction(d.dx, d.dy, node.offsetWidth));
  };

  const snapBack = () => {
    const node = el.current;
    drag.current = null;
    showHint(null);
    if (!node) return;
    const from = node.style.transform;
    node.style.transform = "";
    if (!reducedMotion && from && typeof node.animate === "function") {
      node.animate([{ transform: from }, { transform: "none" }], { duration: SNAP_MS, easing: "ease-out" });
    }
  };

  return (
    <article
      ref={el}
      className={`${CARD} cursor-grab touch-none select-none will-change-transform active:cursor-grabbing`}
      style={{ zIndex: 30 }}
      data-testid="inbox-zero-card"
      data-top-card=""
      data-email-id={card.id}
      aria-label={`Email from ${senderName(card)}: ${card.subject || "(no subject)"}`}
      onPointerDown={(e) => {
        if (leaving.current || (e.pointerType === "mouse" && e.button !== 0)) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, dx: 0, dy: 0 };
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (!d || d.id !== e.pointerId) return;
        d.dx = e.clientX - d.x;
        d.dy = e.clientY - d.y;
        if (!frame.current) frame.current = requestAnimationFrame(place);
      }}
      onPointerUp={(e) => {
        const d = drag.current;
        if (!d || d.id !== e.pointerId) return;
        if (frame.current) cancelAnimationFrame(frame.current);
        frame.current = 0;
        d.dx = e.clientX - d.x;
        d.dy = e.clientY - d.y;
        const action = swipeAction(d.dx, d.dy, el.current?.offsetWidth ?? 0);
        if (action) {
          place();
          fly(action);
        } else snapBack();
      }}
      onPointerCancel={(e) => {
        if (drag.current?.id === e.pointerId) snapBack();
      }}
    >
      <div
        ref={label}
        aria-hidden="true"
        className="pointer-events-none absolute top-3 left-1/2 z-10 -translate-x-1/2 rounded-full bg-slate-900 px-3 py-1 text-sm font-semibold text-white opacity-0"
        data-testid="swipe-hint"
      />
      <CardFace card={card} />
    </article>
  );
}
