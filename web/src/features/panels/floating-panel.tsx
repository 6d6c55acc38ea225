import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { PHONE_QUERY, useMediaQuery } from "./use-media-query.ts";

export interface PanelPosition {
  x: number;
  y: number;
}

const STORAGE_PREFIX = "mailwise.panel.";
const KEY_STEP = 10;
const KEY_STEP_LARGE = 50;

export function panelStorageKey(id: string): string {
  return `${STORAGE_PREFIX}${id}`;
}

function readPosition(id: string, fallback: PanelPosition): PanelPosition {
  try {
    const raw = localStorage.getItem(panelStorageKey(id));
    if (!raw) return fallback;
    const parsed = JSON.parse(raw) as Partial<PanelPosition>;
    if (typeof parsed.x === "number" && typeof parsed.y === "number") return { x: parsed.x, y: parsed.y };
  } catch {
    // unreadable or blocked storage: the default place
  }
  return fallback;
}

function writePosition(id: string, position: PanelPosition): void {
  try {
    localStorage.setItem(panelStorageKey(id), JSON.stringify(position));
  } catch {
    // storage blocked: the position lasts for this visit only
  }
}

/** Keeps at least the title bar on screen, whatever the window size was when it was saved. */
function clamp(position: PanelPosition, width: number): PanelPosition {
  const maxX = Math.max(0, window.innerWidth - Math.min(width, window.innerWidth));
  const maxY = Math.max(0, window.innerHeight - 48);
  return {
    x: Math.round(Math.min(Math.max(0, position.x), maxX)),
    y: Math.round(Math.min(Math.max(0, position.y), maxY)),
  };
}

interface Props {
  id: string;
  title: string;
  onClose: () => void;
  defaultPosition: PanelPosition;
  width?: number;
  children: ReactNode;
}

/**
 * A non-modal panel that floats over the dashboard. The title bar drags it (pointer events with
 * capture, so a fast drag never loses the panel); the move button moves it with the arrow keys.
 * Its place is kept in local storage. On a phone it is a full-screen sheet instead.
 */
export function FloatingPanel({ id, title, onClose, defaultPosition, width = 420, children }: Props) {
  const phone = useMediaQuery(PHONE_QUERY);
  const [position, setPosition] = useState(() => clamp(readPosition(id, defaultPosition), width));
  const drag = useRef<{ pointerId: number; dx: number; dy: number } | null>(null);
  const panelRef = useRef<HTMLElement>(null);
  const titleId = `panel-title-${id}`;

  const moveTo = useCallback(
    (next: PanelPosition) => {
      const clamped = clamp(next, width);
      setPosition(clamped);
      writePosition(id, clamped);
    },
    [id, width],
  );

  useEffect(() => {
    panelRef.current?.focus();
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (phone || e.button !== 0 || (e.target as HTMLElement).closest("[data-no-drag]")) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { pointerId: e.pointerId, dx: e.clientX - position.x, dy: e.clientY - position.y };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    setPosition(clamp({ x: e.clientX - d.dx, y: e.clientY - d.dy }, width));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    drag.current = null;
    moveTo({ x: e.clientX - d.dx, y: e.clientY - d.dy });
  };
  const onMoveKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const step = e.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    const delta: Record<string, PanelPosition> = {
      ArrowLeft: { x: -step, y: 0 },
      ArrowRight: { x: step, y: 0 },
      ArrowUp: { x: 0, y: -step },
      ArrowDown: { x: 0, y: step },
    };
    const d = delta[e.key];
    if (!d) return;
    e.preventDefault();
    e.stopPropagation();
    moveTo({ x: position.x + d.x, y: position.y + d.y });
  };

  return (
    <section
      ref={panelRef}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      data-panel={id}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onClose();
        }
      }}
      className={
        phone
          ? "fixed inset-0 z-30 flex flex-col overflow-hidden bg-white focus:outline-none"
          : "fixed z-30 flex max-h-[80vh] flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl focus:outline-none"
      }
      style={phone ? undefined : { left: position.x, top: position.y, width: `min(${width}px, 100vw)` }}
    >
      <div
        className={`flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2 select-none ${phone ? "" : "cursor-move touch-none"}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        data-testid={`panel-handle-${id}`}
      >
        <h2 id={titleId} className="flex-1 truncate text-sm font-semibold text-slate-900">
          {title}
        </h2>
        {phone ? null : (
          <button
            type="button"
            data-no-drag
            onKeyDown={onMoveKey}
            aria-label={`Move ${title} panel (arrow keys)`}
            title="Move with the arrow keys"
            className="rounded px-2 py-1 text-xs text-slate-600 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <span aria-hidden="true">✥</span>
          </button>
        )}
        <button
          type="button"
          data-no-drag
          onClick={onClose}
          aria-label={`Close ${title}`}
          className="rounded px-2 py-1 text-lg leading-none text-slate-600 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">{children}</div>
    </section>
  );
}
