/**
 * PDF previews with pdf.js (decision 0063). Chromium runs no PDF viewer inside a sandboxed frame,
 * so the pages are drawn here instead: pdf.js parses the file in its worker (same origin, but a
 * worker reaches no DOM and no stored session token) and paints each page onto a canvas, which
 * is pixels and nothing else. Nothing in the PDF runs: pdf.js 6 has no eval path left (the
 * `isEvalSupported` option of older versions, CVE-2024-4367, is gone with it) and the app's CSP
 * forbids eval anyway; scripting is never enabled, XFA and WebAssembly stay off, and annotations
 * and links are not drawn.
 */
import { AnnotationMode, GlobalWorkerOptions, getDocument, type PDFDocumentLoadingTask } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";

GlobalWorkerOptions.workerSrc = workerUrl;

/** Pages drawn at most: a long document is read whole after downloading it. */
export const MAX_PREVIEW_PAGES = 30;
/** No page is drawn wider than this many device pixels, nor an image in it larger than MAX_IMAGE_PIXELS. */
const MAX_CANVAS_WIDTH = 2000;
const MAX_IMAGE_PIXELS = 40_000_000;

export interface PdfRendering {
  /** Resolves with the number of pages in the file once every drawn page is on a canvas. */
  done: Promise<{ pages: number; drawn: number }>;
  cancel: () => void;
}

/**
 * Draws the first MAX_PREVIEW_PAGES pages of `data` into `container`, one canvas each, fitted to
 * `cssWidth` CSS pixels. cancel() stops the work and ends the worker.
 */
export function renderPdf(data: ArrayBuffer, container: HTMLElement, cssWidth: number): PdfRendering {
  const task: PDFDocumentLoadingTask = getDocument({
    data: new Uint8Array(data),
    useWasm: false,
    enableXfa: false,
    stopAtErrors: false,
    maxImageSize: MAX_IMAGE_PIXELS,
    disableAutoFetch: true,
    disableStream: true,
  });
  let cancelled = false;
  const done = (async () => {
    const doc = await task.promise;
    const drawn = Math.min(doc.numPages, MAX_PREVIEW_PAGES);
    const ratio = Math.min(window.devicePixelRatio || 1, 2);
    for (let number = 1; number <= drawn && !cancelled; number++) {
      const page = await doc.getPage(number);
      const base = page.getViewport({ scale: 1 });
      const scale = Math.min((cssWidth * ratio) / base.width, MAX_CANVAS_WIDTH / base.width);
      const viewport = page.getViewport({ scale });
      const canvas = document.createElement("canvas");
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
      canvas.className = "mx-auto block h-auto max-w-full bg-white shadow";
      canvas.setAttribute("role", "img");
      canvas.setAttribute("aria-label", `Page ${number} of ${doc.numPages}`);
      await page.render({ canvas, viewport, annotationMode: AnnotationMode.DISABLE }).promise;
      page.cleanup();
      if (cancelled) break;
      container.append(canvas);
    }
    return { pages: doc.numPages, drawn };
  })();
  return {
    done,
    cancel: () => {
      cancelled = true;
      void task.destroy();
    },
  };
}
