import type { AutosaveStatus } from "./use-draft-autosave.ts";

/** The autosave state beside the compose buttons; a failure says why, the text stays in the form. */
export function DraftStatus({ status, error }: { status: AutosaveStatus; error: string | null }) {
  const text =
    status === "saving"
      ? "Saving…"
      : status === "saved"
        ? "Saved to Drafts"
        : status === "error"
          ? `Not saved to Drafts: ${error ?? "try again"}`
          : "";
  return (
    <p
      role="status"
      aria-live="polite"
      className={`min-w-0 truncate text-xs ${status === "error" ? "text-red-700" : "text-slate-500"}`}
    >
      {text}
    </p>
  );
}
