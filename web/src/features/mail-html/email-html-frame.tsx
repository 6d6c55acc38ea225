import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { useAlwaysShowImages } from "./remote-images.ts";
import { buildSrcDoc, FRAME_BASE_CSS, sanitizeEmailHtml } from "./sanitize.ts";

const MIN_HEIGHT = 80;

/**
 * The frame's content height. The frame has no scripts and an opaque origin, so it can neither
 * report its height nor be read; instead the same sanitized markup (remote images always removed,
 * so this copy never fetches anything) is laid out in a hidden shadow root of the same width.
 * When the guess is short (images without sizes) the frame scrolls, so nothing is ever cut off.
 */
function useMeasuredHeight(headStyles: string, bodyInnerHtml: string) {
  const hostRef = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(MIN_HEIGHT);
  useLayoutEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: "open" });
    const css = FRAME_BASE_CSS.replace("html,body{", ":host{display:block}.m{").replace("body{", ".m{");
    shadow.innerHTML = `<style>${css}</style>${headStyles}<div class="m">${bodyInnerHtml}</div>`;
    const content = shadow.querySelector(".m");
    if (!content) return;
    const measure = () =>
      setHeight(Math.max(MIN_HEIGHT, Math.ceil(content.getBoundingClientRect().height) + 4));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(content);
    return () => observer.disconnect();
  }, [headStyles, bodyInnerHtml]);
  return { hostRef, height };
}

interface Props {
  html: string;
  senderAddress: string;
  title: string;
}

/** An HTML email, sanitized and shown in a sandboxed iframe; remote images only on request. */
export function EmailHtmlFrame({ html, senderAddress, title }: Props) {
  const [alwaysShow, allowSender] = useAlwaysShowImages(senderAddress);
  const [showOnce, setShowOnce] = useState(false);
  const showImages = alwaysShow || showOnce;
  const blockedView = useMemo(() => sanitizeEmailHtml(html, false), [html]);
  const shownView = useMemo(() => (showImages ? sanitizeEmailHtml(html, true) : null), [html, showImages]);
  const view = shownView ?? blockedView;
  const srcDoc = useMemo(() => buildSrcDoc(view, showImages), [view, showImages]);
  const { hostRef, height } = useMeasuredHeight(blockedView.headStyles, blockedView.bodyInnerHtml);

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
      <div className="relative">
        <div
          ref={hostRef}
          aria-hidden="true"
          className="pointer-events-none invisible absolute inset-x-0 top-0 overflow-hidden"
        />
        <iframe
          title={title}
          srcDoc={srcDoc}
          // No allow-scripts and no allow-same-origin: the mail can neither run code nor reach the app.
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          referrerPolicy="no-referrer"
          style={{ height }}
          className="block w-full rounded-lg border border-slate-200 bg-white"
        />
      </div>
    </div>
  );
}
