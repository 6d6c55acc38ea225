import { useId, useState } from "react";
import { formatSize } from "../../attachments/format.ts";
import type { ComposeAttachmentsState } from "./use-compose-attachments.ts";

/**
 * The compose dialog's file list (issue 36): an "Attach files" picker, one row per file with a
 * progress bar named after the file while it uploads, its limit or upload error as a sentence,
 * and a `Remove <file name>` button (forwarded originals too).
 */
export function ComposeAttachments({ state }: { state: ComposeAttachmentsState }) {
  const id = useId();
  return (
    <div>
      <div className="flex items-center gap-2">
        <label
          htmlFor={`${id}-files`}
          className="cursor-pointer rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-within:outline-2 focus-within:outline-brand-600"
        >
          Attach files
          <input
            id={`${id}-files`}
            type="file"
            multiple
            className="sr-only"
            onChange={(e) => {
              state.add(Array.from(e.target.files ?? []));
              // The same file can be picked again after removing it.
              e.target.value = "";
            }}
          />
        </label>
        <span className="text-xs text-slate-500">or drop files here, or paste an image</span>
      </div>
      {state.files.length > 0 ? (
        <ul aria-label="Attachments" className="mt-2 space-y-1.5">
          {state.files.map((file) => (
            <li
              key={file.key}
              className={`rounded-lg border px-3 py-2 text-sm ${
                file.status === "failed" ? "border-red-300 bg-red-50" : "border-slate-200"
              }`}
            >
              <div className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate text-slate-900" title={file.fileName}>
                  {file.fileName}
                </span>
                <span className="shrink-0 text-xs text-slate-500">{formatSize(file.size)}</span>
                <button
                  type="button"
                  aria-label={`Remove ${file.fileName}`}
                  onClick={() => state.remove(file.key)}
                  className="shrink-0 rounded px-1.5 text-lg leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  ×
                </button>
              </div>
              {file.status === "uploading" ? (
                <div
                  role="progressbar"
                  aria-label={file.fileName}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(file.progress * 100)}
                  className="mt-1.5 h-1.5 overflow-hidden rounded bg-slate-200"
                >
                  <div
                    className="h-full bg-brand-600"
                    style={{ width: `${Math.round(file.progress * 100)}%` }}
                  />
                </div>
              ) : null}
              {file.error ? (
                <p role="alert" className="mt-1 text-xs text-red-700">
                  {file.error}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * Drag and drop onto the dialog and pasting an image: handlers to spread on the dialog's form,
 * and whether files are being dragged over it (for a highlight).
 */
export function useFileDrop(add: (files: File[]) => void) {
  const [over, setOver] = useState(false);
  const hasFiles = (e: React.DragEvent) => Array.from(e.dataTransfer.types).includes("Files");
  return {
    over,
    handlers: {
      onDragOver: (e: React.DragEvent) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setOver(true);
      },
      onDragLeave: (e: React.DragEvent) => {
        if (e.currentTarget === e.target) setOver(false);
      },
      onDrop: (e: React.DragEvent) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setOver(false);
        add(Array.from(e.dataTransfer.files));
      },
      onPaste: (e: React.ClipboardEvent) => {
        const images = Array.from(e.clipboardData.files).filter((f) => f.type.startsWith("image/"));
        if (images.length === 0) return;
        // An image pasted into the message becomes an attachment, not text.
        e.preventDefault();
        add(images);
      },
    },
  };
}
