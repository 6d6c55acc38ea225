import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import { useRef, useState } from "react";
import { messageExtensions } from "./extensions.ts";
import { LinkPrompt } from "./link-prompt.tsx";
import { docFromPlainText, editorHtmlOf, hasFormatting, outgoingHtml, plainTextOf } from "./plain-text.ts";
import { FormattingToolbar } from "./toolbar.tsx";

export interface MessageValue {
  /** The plain text (lines, list markers, quote marks): the form's `body`. */
  body: string;
  /** The HTML to send beside it; undefined while the message has no formatting (sent as plain text). */
  html: string | undefined;
}

export interface MessageEditorProps {
  /** The visible "Message" label: the editable area's accessible name (spec). */
  labelId: string;
  /** Text the editor starts with (a reply's quote, an AI suggestion); remount to replace it. */
  initialText: string;
  /** Or HTML it starts with (the account signature's formatting, a held mail's): preferred to the text. */
  initialHtml?: string | undefined;
  onChange: (value: MessageValue) => void;
}

/**
 * The compose dialog's Message field (issue 36, rich text): TipTap (ProseMirror) with a toolbar
 * for bold, italic, underline, link, lists and quote, and their shortcuts. Loaded lazily with the
 * dialog (decision 0065).
 */
export function MessageEditor({ labelId, initialText, initialHtml, onChange }: MessageEditorProps) {
  const [linkPrompt, setLinkPrompt] = useState<{ href: string } | null>(null);
  // The shortcut is registered once with the editor; it reaches the current state through this.
  const openLinkPrompt = useRef<() => void>(() => {});
  // Built once: a new extensions array or content on every render would make TipTap reconfigure
  // the editor on each keystroke (it compares options by identity).
  const [options] = useState(() => ({
    extensions: messageExtensions(() => openLinkPrompt.current()),
    content: initialHtml !== undefined ? editorHtmlOf(initialHtml) : docFromPlainText(initialText),
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        class:
          "min-h-32 sm:min-h-48 max-h-[50vh] overflow-y-auto rounded-b-lg px-3 py-2 text-sm text-slate-900 focus:outline-2 focus:outline-brand-600 [&_a]:text-brand-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3 [&_blockquote]:text-slate-700 [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6",
      },
    },
  }));
  const editor = useEditor({
    ...options,
    onUpdate: ({ editor: current }) => {
      const doc = current.getJSON();
      onChange({
        body: plainTextOf(doc),
        html: hasFormatting(doc) ? outgoingHtml(current.getHTML()) : undefined,
      });
    },
  });
  const link = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      active: current.isActive("link"),
      href: String(current.getAttributes("link").href ?? ""),
    }),
  });
  openLinkPrompt.current = () => {
    const href = String(editor.getAttributes("link").href ?? "");
    setLinkPrompt({ href });
  };

  const closePrompt = () => {
    setLinkPrompt(null);
    editor.commands.focus();
  };
  const applyLink = (href: string) => {
    const chain = editor.chain().focus().extendMarkRange("link");
    if (editor.state.selection.empty && !link.active) {
      // Nothing selected: the address itself becomes the linked text.
      const text = href.startsWith("mailto:") ? href.slice("mailto:".length) : href;
      chain.insertContent({ type: "text", text, marks: [{ type: "link", attrs: { href } }] }).run();
    } else chain.setLink({ href }).run();
    // Typing goes on after the link, not over it, and without the link mark.
    editor.chain().setTextSelection(editor.state.selection.to).unsetMark("link").run();
    setLinkPrompt(null);
  };

  return (
    <div className="rounded-lg border border-slate-300 focus-within:border-brand-600">
      <FormattingToolbar editor={editor} onLink={() => openLinkPrompt.current()} />
      {linkPrompt ? (
        <div className="border-b border-slate-200 p-2">
          <LinkPrompt
            initial={linkPrompt.href}
            onApply={applyLink}
            onRemove={
              link.active
                ? () => {
                    editor.chain().focus().extendMarkRange("link").unsetLink().run();
                    setLinkPrompt(null);
                  }
                : null
            }
            onCancel={closePrompt}
          />
        </div>
      ) : null}
      <EditorContent editor={editor} />
    </div>
  );
}
