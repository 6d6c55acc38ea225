/**
 * The one script the sandboxed email frame runs (decision 0018). The frame has an opaque origin,
 * so the app cannot read its height; this fixed script measures the mail's body and posts the
 * height to the parent, which only resizes the frame. It lives here because two policies must
 * name it by hash: the app's CSP (a srcdoc frame inherits it) and the frame's own.
 * Changing one byte changes the hash; contract/mail-frame.test.ts checks they agree.
 */
export const MAIL_FRAME_SCRIPT =
  '(()=>{let h=-1;const send=()=>{const b=document.body;if(!b)return;const r=b.getBoundingClientRect();const n=Math.ceil(Math.max(r.bottom,r.top+b.scrollHeight)+scrollY+(parseFloat(getComputedStyle(b).marginBottom)||0));if(n!==h){h=n;parent.postMessage({mailwiseFrameHeight:n},"*")}};addEventListener("DOMContentLoaded",()=>{new ResizeObserver(send).observe(document.body);send()});addEventListener("load",send)})();';

/** CSP source expression for MAIL_FRAME_SCRIPT. */
export const MAIL_FRAME_SCRIPT_HASH = "'sha256-Ev+Rnk8ymeMMLbCsDqlNbhMiPZ3vymeW+QSPAY+kZqE='";

/** The message the frame posts: `{ [MAIL_FRAME_HEIGHT_KEY]: pixels }`. */
export const MAIL_FRAME_HEIGHT_KEY = "mailwiseFrameHeight";
