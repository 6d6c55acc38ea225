import { useEffect, useMemo, useRef, useState } from "react";
import { MAIL_FRAME_HEIGHT_KEY } from "../../../../contract/mail-frame.ts";
import { type InlinePart, inlineImagesOf } from "./inline-images.ts";
import { useAlwaysShowImages } from "./remote-images.ts";
import { buildSrcDoc, sanitizeEmailHtml } from "./sanitize.ts";

const MIN_HEIGHT = 80;
// A mail whose height grows with its frame (height: calc(100vh + 10px)) stops here and scrolls.
const MAX_HEIGHT = 40_000;

/**
 * The frame's content height, as the frame's fixed script reports it (contract/mail-frame.ts).
 * The mail is never laid out in the app's own document, not even hidden: email CSS there
 * (position:fixed, :host rules) could cover the app. Only messages from this frame's window
 * count, and only as a clamped number; when the report is short the frame scrolls. A new
 * document (another mail, images allowed) reports afresh; the old height holds meanwhile.
 */
function useReportedHeight() {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(MIN_HEIGHT);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!frameRef.current || event.source !== frameRef.current.contentWindow) return;
      const reported: unknown = (event.data as Record<string, unknown> | null)?.[MAIL_FRAME_HEIGHT_KEY];
      if (typeof reported !== "number" || !Number.isFinite(reported)) return;
      setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(reported))));
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);
  return { frameRef, height };
}

interface Props {
  html: string;
  senderAddress: string;
  title: string;
  /** The mail's attachments: its cid: images show where the sender put them, without consent. */
  attachments?: readonly InlinePart[];
}

const NO_PARTS: readonly InlinePart[] = [];

/** An HTML email, sanitized and shown in a sandboxed iframe; remote images only on request. */
export function EmailHtmlFrame({ html, senderAddress, title, attachments = NO_PARTS }: Props) {
  const [alwaysShow, allowSender] = useAlwaysShowImages(senderAddress);
  const [showOnce, setShowOnce] = useState(false);
  const showImages = alwaysShow || showOnce;
  const inline = useMemo(() => inlineImagesOf(attachments, window.location.origin), [attachments]);
  const blockedView = useMemo(() => sanitizeEmailHtml(html, false, inline.images), [html, inline]);
  const shownView = useMemo(
    () => (showImages ? sanitizeEmailHtml(html, true, inline.images) : null),
    [html, showImages, inline],
  );
  const view = shownView ?? blockedView;
  const srcDoc = useMemo(() => buildSrcDoc(view, showImages, inline.source), [view, showImages, inline]);
  const { frameRef, height } = useReportedHeight();

  return (
    <div className="flex flex-col gap-2">
      {!showImages && blockedView.blockedRemote > 0 ? (
        <div
          role="status"
          className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <span className="flex-1">Remote images are hidden to protect your privacy.</span>
          <button
            type="button"
            onClick={() => setShowOnce(true)}
            className="rounded-md px-2 py-1 font-medium text-amber-900 underline hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            Show images
          </button>
          <button
            type="button"
            onClick={allowSender}
            className="rounded-md px-2 py-1 font-medium text-amber-900 underline hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            Always show from this sender
          </button>
        </div>
      ) : null}
      <iframe
        ref={frameRef}
        title={title}
        srcDoc={srcDoc}
        // No allow-same-origin: an opaque origin that can reach nothing of the app. allow-scripts
        // runs only what the frame's CSP names by hash, the height reporter; the mail's own
        // scripts are removed by the sanitizer and refused by both CSPs.
        sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"
        referrerPolicy="no-referrer"
        style={{ height }}
        className="block w-full rounded-lg border border-slate-200 bg-white"
      />
    </div>
  );
}
