import { useQuery } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import type { ReactNode } from "react";
import type { AttachedMessage, Attachment } from "../../../../contract/attachments.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { ApiError, apiRequest } from "../../lib/api.ts";
import { EmailHtmlFrame } from "../mail-html/email-html-frame.tsx";
import { readerBody } from "../reader/body.ts";
import { OVERLAY, SHEET_CONTENT } from "../reader/dialog-classes.ts";
import { type AttachmentSource, attachmentErrorText } from "./download.ts";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The address in "Name <address>" (or the whole value): whose remote images the person allowed. */
export function senderAddressOf(from: string): string {
  const open = from.lastIndexOf("<");
  const close = from.lastIndexOf(">");
  return open >= 0 && close > open ? from.slice(open + 1, close).trim() : from.trim();
}

/** GET /api/emails/:id/attachments/:attachmentId/message. */
function useAttachedMessage(source: AttachmentSource, attachmentId: string) {
  return useQuery<AttachedMessage>({
    queryKey: ["/api/emails", source.emailId, "attachments", attachmentId, "message"],
    queryFn: ({ signal }) =>
      apiRequest<AttachedMessage>(
        "GET",
        `/api/emails/${encodeURIComponent(source.emailId)}/attachments/${encodeURIComponent(attachmentId)}/message`,
        undefined,
        { signal },
      ),
    retry: false,
    // Its signed links last an hour: read it afresh when it is opened again later.
    staleTime: 5 * 60_000,
  });
}

/** Draws an attachment list (attachment-list.tsx passes its own, which would otherwise import this file). */
export type RenderAttachments = (attachments: readonly Attachment[], bodyHtml: string | null) => ReactNode;

/**
 * A message attached as message/rfc822, opened over the reader as a message of its own: from,
 * subject, date, the body sanitized like any mail (its cid: images in place), and its own
 * attachments, downloadable (and openable, when one is a message again).
 */
export default function AttachedMessageDialog({
  source,
  attachmentId,
  name,
  onClose,
  renderAttachments,
}: {
  source: AttachmentSource;
  attachmentId: string;
  name: string;
  onClose: () => void;
  renderAttachments: RenderAttachments;
}) {
  const message = useAttachedMessage(source, attachmentId);
  const data = message.data;
  return (
    <DialogRoot open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className={`${OVERLAY} z-50`} />
        <Dialog.Content className={`${SHEET_CONTENT} z-50 sm:max-w-3xl`} aria-describedby={undefined}>
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-4 pt-4 pb-3 sm:px-6">
            <div className="min-w-0">
              <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Attached message</p>
              <Dialog.Title className="text-lg font-semibold break-words text-slate-900">
                {data ? data.subject || "(no subject)" : <bdi>{name}</bdi>}
              </Dialog.Title>
            </div>
            <Dialog.Close
              aria-label="Close attached message"
              className="shrink-0 rounded-lg px-2 py-1 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              ×
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6">
            {data ? (
              <AttachedMessageBody message={data} renderAttachments={renderAttachments} />
            ) : message.isError ? (
              <p role="alert" className="text-sm text-red-700">
                {attachmentErrorText(
                  message.error instanceof ApiError ? (message.error.code ?? "") : "network",
                  source.provider,
                )}
              </p>
            ) : (
              <p role="status" className="text-sm text-slate-600">
                Loading…
              </p>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

function AttachedMessageBody({
  message,
  renderAttachments,
}: {
  message: AttachedMessage;
  renderAttachments: RenderAttachments;
}) {
  const body = readerBody({ bodyHtml: message.bodyHtml, bodyText: message.bodyText, snippet: "" });
  const date = message.date ? new Date(message.date) : null;
  return (
    <>
      <dl className="mb-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">From</dt>
        <dd className="min-w-0 break-words text-slate-900">{message.from || "—"}</dd>
        <dt className="text-slate-500">To</dt>
        <dd className="min-w-0 break-words text-slate-900">{message.to || "—"}</dd>
        {message.cc ? (
          <>
            <dt className="text-slate-500">Cc</dt>
            <dd className="min-w-0 break-words text-slate-900">{message.cc}</dd>
          </>
        ) : null}
        <dt className="text-slate-500">Date</dt>
        <dd className="text-slate-900">
          {date && !Number.isNaN(date.getTime()) ? (
            <time dateTime={message.date ?? undefined}>{dateFormat.format(date)}</time>
          ) : (
            "—"
          )}
        </dd>
      </dl>
      {renderAttachments(message.attachments, message.bodyHtml)}
      {body.kind === "html" ? (
        <EmailHtmlFrame
          html={body.content}
          senderAddress={senderAddressOf(message.from)}
          title={`Attached message from ${message.from || "unknown sender"}`}
          attachments={message.attachments}
        />
      ) : body.kind === "empty" ? (
        <p className="text-sm text-slate-500 italic">No content available</p>
      ) : (
        <div className="text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">
          {body.content}
        </div>
      )}
    </>
  );
}
