import type { ForwardedFile } from "./compose-source.ts";

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The forwarded original's attachments as chips, each removable before sending. */
export function ForwardedFiles({
  files,
  onRemove,
}: {
  files: readonly ForwardedFile[];
  onRemove: (index: number) => void;
}) {
  if (files.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Attachments">
      {files.map((file, index) => (
        <li
          key={file.ref.kind === "original" ? file.ref.attachmentId : index}
          className="flex items-center gap-1 rounded-full border border-slate-300 bg-slate-50 py-0.5 pr-1 pl-3 text-sm text-slate-800"
        >
          <span className="max-w-56 truncate">{file.fileName}</span>
          <span className="text-xs text-slate-500">{size(file.size)}</span>
          <button
            type="button"
            aria-label={`Remove ${file.fileName}`}
            onClick={() => onRemove(index)}
            className="rounded-full px-1.5 text-base leading-none text-slate-500 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
