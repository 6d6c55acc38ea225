import { Dialog } from "radix-ui";
import { type RefObject, useEffect, useRef, useState } from "react";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { AttachmentError, attachmentErrorText, fetchAttachment, type ProviderName } from "./download.ts";

/** Larger PDFs are not drawn here (the bytes are held in memory while pdf.js reads them). */
export const MAX_PDF_PREVIEW_BYTES = 30 * 1024 * 1024;

const CONTENT =
  "fixed inset-0 z-50 flex flex-col bg-white shadow-xl focus:outline-none sm:inset-6 sm:rounded-2xl lg:inset-x-[10vw]";
const BUTTON =
  "inline-flex shrink-0 items-center rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600";

interface Props {
  /** The file name as displayFileName shows it. */
  name: string;
  kind: "image" | "pdf";
  inlineUrl: string;
  size: number;
  provider: ProviderName;
  onClose: () => void;
  onDownload: () => void;
  /** The link had expired: the caller reads fresh ones. */
  onExpired: () => void;
}

/**
 * Preview of an image or a PDF over the reader. An image is shown by the browser in a frame that
 * runs no script and has an origin of its own (sandbox without allow-scripts or
 * allow-same-origin); a PDF's pages are drawn onto canvases by pdf.js (pdf-render.ts).
 */
export default function PreviewDialog({
  name,
  kind,
  inlineUrl,
  size,
  provider,
  onClose,
  onDownload,
  onExpired,
}: Props) {
  const expired = useRef(onExpired);
  expired.current = onExpired;
  return (
    <DialogRoot open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <Dialog.Content className={CONTENT} aria-describedby={undefined}>
          <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-3">
            <Dialog.Title className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900">
              <bdi>{name}</bdi>
            </Dialog.Title>
            <button type="button" className={BUTTON} onClick={onDownload}>
              Download
            </button>
            <Dialog.Close
              aria-label="Close preview"
              className="shrink-0 rounded-lg px-2 py-1 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              ×
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-auto bg-slate-100 p-2 sm:p-4">
            {kind === "image" ? (
              <ImagePreview name={name} inlineUrl={inlineUrl} provider={provider} expired={expired} />
            ) : (
              <PdfPreview inlineUrl={inlineUrl} size={size} provider={provider} expired={expired} />
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

type Load = { state: "loading" } | { state: "ready" } | { state: "failed"; message: string };

/** The failure as the dialog says it; an expired link also asks for fresh ones (a new inlineUrl retries). */
function failureOf(err: unknown, provider: ProviderName, expired: RefObject<() => void>): Load {
  if (err instanceof AttachmentError && err.code === "invalid_link") expired.current();
  return {
    state: "failed",
    message: attachmentErrorText(err instanceof AttachmentError ? err.code : "preview_failed", provider),
  };
}

function Failure({ message }: { message: string }) {
  return (
    <p role="alert" className="mx-auto max-w-prose rounded-lg bg-white p-4 text-sm text-red-700">
      {message}
    </p>
  );
}

/**
 * The image in a sandboxed frame pointing at its inline link. The link is asked first (and the
 * answer's body dropped) so that a failure reads as a message here, not as an error page inside
 * the frame.
 */
function ImagePreview({
  name,
  inlineUrl,
  provider,
  expired,
}: {
  name: string;
  inlineUrl: string;
  provider: ProviderName;
  expired: RefObject<() => void>;
}) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    fetchAttachment(inlineUrl, controller.signal)
      .then(async (res) => {
        await res.body?.cancel();
        setLoad({ state: "ready" });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setLoad(failureOf(err, provider, expired));
      });
    return () => controller.abort();
  }, [inlineUrl, provider, expired]);

  if (load.state === "failed") return <Failure message={load.message} />;
  if (load.state === "loading")
    return (
      <p role="status" className="p-4 text-sm text-slate-600">
        Loading preview…
      </p>
    );
  return (
    <iframe
      title={`Preview of ${name}`}
      src={inlineUrl}
      // Empty: no scripts, no same-origin access, no forms, popups or navigation of the app.
      sandbox=""
      referrerPolicy="no-referrer"
      className="block h-full min-h-[60vh] w-full rounded-lg border border-slate-200 bg-white"
    />
  );
}

/** The PDF's pages as pictures, drawn by pdf.js in this page (pdf-render.ts, loaded on first use). */
function PdfPreview({
  inlineUrl,
  size,
  provider,
  expired,
}: {
  inlineUrl: string;
  size: number;
  provider: ProviderName;
  expired: RefObject<() => void>;
}) {
  const [load, setLoad] = useState<Load>(
    size > MAX_PDF_PREVIEW_BYTES
      ? { state: "failed", message: attachmentErrorText("too_large", provider) }
      : { state: "loading" },
  );
  const [note, setNote] = useState<string | null>(null);
  const pagesRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (size > MAX_PDF_PREVIEW_BYTES) return;
    const controller = new AbortController();
    let cancelRender: (() => void) | undefined;
    (async () => {
      const res = await fetchAttachment(inlineUrl, controller.signal);
      const data = await res.arrayBuffer();
      const { renderPdf, MAX_PREVIEW_PAGES } = await import("./pdf-render.ts");
      const container = pagesRef.current;
      if (controller.signal.aborted || !container) return;
      const rendering = renderPdf(data, container, Math.min(container.clientWidth || 800, 1000));
      cancelRender = rendering.cancel;
      const { pages, drawn } = await rendering.done;
      if (controller.signal.aborted) return;
      setLoad({ state: "ready" });
      if (pages > drawn)
        setNote(
          `Showing the first ${MAX_PREVIEW_PAGES} of ${pages} pages. Download the file to read it all.`,
        );
    })().catch((err: unknown) => {
      if (!controller.signal.aborted) setLoad(failureOf(err, provider, expired));
    });
    return () => {
      controller.abort();
      cancelRender?.();
    };
  }, [inlineUrl, size, provider, expired]);

  return (
    <div className="flex flex-col gap-3">
      {load.state === "failed" ? <Failure message={load.message} /> : null}
      {load.state === "loading" ? (
        <p role="status" className="p-2 text-sm text-slate-600">
          Loading preview…
        </p>
      ) : null}
      <div ref={pagesRef} className="flex flex-col gap-3" data-testid="pdf-pages" />
      {note ? (
        <p role="status" className="text-center text-sm text-slate-600">
          {note}
        </p>
      ) : null}
    </div>
  );
}
