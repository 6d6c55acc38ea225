import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import type { Attachment } from "../../../../contract/attachments.ts";
import { emailKeys } from "../../lib/mail-queries.ts";
import {
  AttachmentError,
  type AttachmentSource,
  attachmentErrorText,
  downloadAttachment,
} from "./download.ts";
import { FileIcon } from "./file-icon.tsx";
import { displayFileName, fileKind, formatSize, shortFileName } from "./format.ts";
import { listedAttachments } from "./listed.ts";

// Both dialogs load on first use: the preview brings pdf.js along, the message its own frame.
const PreviewDialog = lazy(() => import("./preview-dialog.tsx"));
const AttachedMessageDialog = lazy(() => import("./attached-message-dialog.tsx"));

export type { AttachmentSource };

const CONTROL =
  "inline-flex shrink-0 items-center gap-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-wait disabled:opacity-60";

/** The email's attachments with their icon, name and size, and Download / Preview / Open controls. */
export function AttachmentList({
  source,
  attachments,
  bodyHtml,
}: {
  source: AttachmentSource;
  attachments: readonly Attachment[];
  /** The body the list sits beside: its cid: images are shown there, not listed. */
  bodyHtml: string | null;
}) {
  const listed = listedAttachments(attachments, bodyHtml);
  if (listed.length === 0) return null;
  return (
    <section aria-label="Attachments" className="mb-4" data-testid="attachments">
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {listed.length === 1 ? "1 attachment" : `${listed.length} attachments`}
      </h3>
      <ul className="flex flex-col gap-2">
        {listed.map((attachment) => (
          <AttachmentRow key={attachment.id} source={source} attachment={attachment} />
        ))}
      </ul>
    </section>
  );
}

/**
 * Signed links last an hour (a reader left open longer holds expired ones): reads the email and its
 * attached messages again, so the next click uses fresh links.
 */
function useRenewLinks(emailId: string): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: emailKeys.detail(emailId) });
    void queryClient.invalidateQueries({ queryKey: ["/api/emails", emailId, "attachments"] });
  }, [queryClient, emailId]);
}

function AttachmentRow({ source, attachment }: { source: AttachmentSource; attachment: Attachment }) {
  const name = displayFileName(attachment.filename);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [messageOpen, setMessageOpen] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const renewLinks = useRenewLinks(source.emailId);

  const download = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setError(null);
    try {
      await downloadAttachment(attachment.url, attachment.filename, controller.signal);
    } catch (err) {
      if (controller.signal.aborted) return;
      const code = err instanceof AttachmentError ? err.code : "unknown";
      if (code === "invalid_link") renewLinks();
      setError(attachmentErrorText(code, source.provider));
    } finally {
      if (abort.current === controller) setBusy(false);
    }
  };

  return (
    <li
      className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2"
      data-testid="attachment"
      data-attachment-id={attachment.id}
    >
      <div className="flex min-w-0 items-center gap-3">
        <FileIcon kind={fileKind(attachment.mimeType, attachment.filename, attachment.isMessage)} />
        {/* On a phone the controls go under the name, which keeps the whole width. */}
        <div className="flex min-w-0 flex-1 flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-3">
          <p
            className="flex min-w-0 flex-1 items-baseline text-sm text-slate-800"
            data-testid="attachment-label"
          >
            {/* bdi: a right-to-left name never reorders the size after it. */}
            <bdi className="min-w-0 truncate font-medium" title={name}>
              {shortFileName(name)}
            </bdi>
            <span className="shrink-0 whitespace-nowrap text-slate-500">{`\u00a0· ${formatSize(attachment.size)}`}</span>
          </p>
          <div className="flex shrink-0 flex-wrap gap-1.5 sm:justify-end">
            {attachment.isMessage ? (
              <button
                type="button"
                className={CONTROL}
                aria-label={`Open ${name}`}
                aria-haspopup="dialog"
                onClick={() => setMessageOpen(true)}
              >
                Open
              </button>
            ) : null}
            {attachment.preview && attachment.inlineUrl ? (
              <button
                type="button"
                className={CONTROL}
                aria-label={`Preview ${name}`}
                aria-haspopup="dialog"
                onClick={() => setPreviewOpen(true)}
              >
                Preview
              </button>
            ) : null}
            <button
              type="button"
              className={CONTROL}
              aria-label={`Download ${name}`}
              aria-busy={busy || undefined}
              disabled={busy}
              onClick={() => void download()}
            >
              {busy ? "Downloading…" : "Download"}
            </button>
          </div>
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {previewOpen && attachment.preview && attachment.inlineUrl ? (
        <Suspense fallback={null}>
          <PreviewDialog
            name={name}
            kind={attachment.preview}
            inlineUrl={attachment.inlineUrl}
            size={attachment.size}
            provider={source.provider}
            onClose={() => setPreviewOpen(false)}
            onDownload={() => void download()}
            onExpired={renewLinks}
          />
        </Suspense>
      ) : null}
      {messageOpen ? (
        <Suspense fallback={null}>
          <AttachedMessageDialog
            source={source}
            attachmentId={attachment.id}
            name={name}
            onClose={() => setMessageOpen(false)}
            renderAttachments={(attachments, bodyHtml) => (
              <AttachmentList source={source} attachments={attachments} bodyHtml={bodyHtml} />
            )}
          />
        </Suspense>
      ) : null}
    </li>
  );
}
