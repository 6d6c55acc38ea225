import { useQuery } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import { UNSUBSCRIBE_STATUS_KEY, type UnsubscribeStatusList } from "../mail-actions/unsubscribe-store.ts";

/** Pieces the single-message reader and the conversation reader share. */

export type ReaderAction =
  | "archive"
  | "star"
  | "unstar"
  | "flag"
  | "unflag"
  | "delete"
  | "read"
  | "unread"
  | "snooze";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

export function StarIcon({ filled }: { filled: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-4 w-4"
      fill={filled ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8-6.2-3.2-6.2 3.2L7 14.2 2 9.3l6.9-1Z" />
    </svg>
  );
}

export function CloseButton() {
  return (
    <Dialog.Close
      aria-label="Close"
      className="shrink-0 rounded-lg px-2 py-1 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      ×
    </Dialog.Close>
  );
}

const OUTCOME_TEXT = {
  done: "Unsubscribed",
  failed: "Unsubscribe failed",
  manual: "Unsubscribe manually",
} as const;

/** The sender's last unsubscribe request, once it left 'processing'. */
export function UnsubscribeOutcome({ senderAddress }: { senderAddress: string }) {
  const statuses = useQuery<UnsubscribeStatusList | null>({ queryKey: UNSUBSCRIBE_STATUS_KEY });
  const sender = senderAddress.toLowerCase();
  const status = statuses.data?.requests.find((r) => r.senderAddress === sender);
  if (!status || status.status === "processing") return null;
  const safeUrl = status.url && /^https?:\/\//i.test(status.url) ? status.url : null;
  return (
    <p className="mt-2 text-sm text-slate-700" role="status">
      <span className="font-medium">{OUTCOME_TEXT[status.status]}</span>
      {status.detail ? <span>: {status.detail}</span> : null}
      {status.status === "manual" && safeUrl ? (
        <>
          {" "}
          <a
            href={safeUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-brand-700 underline hover:text-brand-800"
          >
            Open the unsubscribe page
          </a>
        </>
      ) : null}
    </p>
  );
}
