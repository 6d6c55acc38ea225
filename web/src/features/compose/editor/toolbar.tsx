import { type Editor, useEditorState } from "@tiptap/react";
import type { ReactNode } from "react";

type Format = "bold" | "italic" | "underline" | "link" | "bulletList" | "orderedList" | "blockquote";

const svg = (children: ReactNode) => (
  <svg
    viewBox="0 0 20 20"
    width="18"
    height="18"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    aria-hidden="true"
  >
    {children}
  </svg>
);

/** Toolbar buttons in the order: accessible name, shortcut (in the tooltip), glyph. */
const BUTTONS: readonly { format: Format; name: string; keys: string; glyph: ReactNode }[] = [
  { format: "bold", name: "Bold", keys: "Ctrl+B", glyph: <span className="font-bold">B</span> },
  { format: "italic", name: "Italic", keys: "Ctrl+I", glyph: <span className="font-serif italic">I</span> },
  { format: "underline", name: "Underline", keys: "Ctrl+U", glyph: <span className="underline">U</span> },
  {
    format: "link",
    name: "Link",
    keys: "Ctrl+K",
    glyph: svg(
      <>
        <path d="M8.5 11.5a3 3 0 0 0 4.2 0l2.6-2.6a3 3 0 0 0-4.2-4.2l-1 1" />
        <path d="M11.5 8.5a3 3 0 0 0-4.2 0l-2.6 2.6a3 3 0 0 0 4.2 4.2l1-1" />
      </>,
    ),
  },
  {
    format: "bulletList",
    name: "Bulleted list",
    keys: "Ctrl+Shift+8",
    glyph: svg(
      <>
        <path d="M8 5h9M8 10h9M8 15h9" />
        <circle cx="4" cy="5" r="1" fill="currentColor" />
        <circle cx="4" cy="10" r="1" fill="currentColor" />
        <circle cx="4" cy="15" r="1" fill="currentColor" />
      </>,
    ),
  },
  {
    format: "orderedList",
    name: "Numbered list",
    keys: "Ctrl+Shift+7",
    glyph: svg(
      <>
        <path d="M8 5h9M8 10h9M8 15h9" />
        <path d="M3 3.5l1-.5v4M3 13h2l-2 3h2" strokeWidth="1.2" />
      </>,
    ),
  },
  {
    format: "blockquote",
    name: "Quote",
    keys: "Ctrl+Shift+B",
    glyph: svg(
      <>
        <path d="M4 4v12" strokeWidth="2.4" />
        <path d="M8 6h9M8 10h9M8 14h6" />
      </>,
    ),
  },
];

function apply(editor: Editor, format: Exclude<Format, "link">): void {
  const chain = editor.chain().focus();
  if (format === "bold") chain.toggleBold().run();
  else if (format === "italic") chain.toggleItalic().run();
  else if (format === "underline") chain.toggleUnderline().run();
  else if (format === "bulletList") chain.toggleBulletList().run();
  else if (format === "orderedList") chain.toggleOrderedList().run();
  else chain.toggleBlockquote().run();
}

const button =
  "inline-flex h-9 min-w-9 items-center justify-center rounded-md px-2 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-700";

/** The formatting buttons; each shows whether the selection has its format (aria-pressed). */
export function FormattingToolbar({ editor, onLink }: { editor: Editor; onLink: () => void }) {
  const active = useEditorState({
    editor,
    selector: ({ editor: current }): Record<Format, boolean> => ({
      bold: current.isActive("bold"),
      italic: current.isActive("italic"),
      underline: current.isActive("underline"),
      link: current.isActive("link"),
      bulletList: current.isActive("bulletList"),
      orderedList: current.isActive("orderedList"),
      blockquote: current.isActive("blockquote"),
    }),
  });
  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      className="flex flex-wrap gap-0.5 border-b border-slate-200 p-1"
    >
      {BUTTONS.map(({ format, name, keys, glyph }) => (
        <button
          key={format}
          type="button"
          aria-label={name}
          title={`${name} (${keys})`}
          aria-pressed={active[format]}
          className={button}
          // Keeps the selection in the editor while the button is pressed.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => (format === "link" ? onLink() : apply(editor, format))}
        >
          {glyph}
        </button>
      ))}
    </div>
  );
}
