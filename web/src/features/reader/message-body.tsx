import { useId, useMemo, useState } from "react";
import type { Email } from "../../../../contract/mail.ts";
import { EmailHtmlFrame } from "../mail-html/email-html-frame.tsx";
import { readerBody } from "./body.ts";
import { splitQuotedHtml, splitQuotedText } from "./quoted.ts";

interface Folded {
  /** What shows while the quote is folded. */
  main: string;
  /** The whole body, shown when the person unfolds the quote (for text: the quote alone). */
  rest: string;
}

/**
 * One message's body in a conversation (spec section 2's order: HTML, else text, else snippet,
 * else 'No content available'), its quoted history folded behind "Show quoted text".
 */
export function MessageBody({ message }: { message: Email }) {
  const body = readerBody(message);
  const [showQuoted, setShowQuoted] = useState(false);
  const quoteId = useId();
  const kind = body.kind;
  const content = body.kind === "empty" ? "" : body.content;
  const folded = useMemo<Folded | null>(() => {
    if (kind === "html") {
      const split = splitQuotedHtml(content);
      return split.hasQuoted ? { main: split.main, rest: content } : null;
    }
    if (kind === "text") {
      const split = splitQuotedText(content);
      return split.quoted === null ? null : { main: split.main, rest: split.quoted };
    }
    return null;
  }, [kind, content]);

  const toggle = folded ? (
    <button
      type="button"
      aria-expanded={showQuoted}
      aria-controls={body.kind === "text" && showQuoted ? quoteId : undefined}
      onClick={() => setShowQuoted((s) => !s)}
      className="mt-2 inline-flex items-center gap-1 rounded-md border border-slate-200 bg-slate-50 px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <span aria-hidden="true">•••</span>
      {showQuoted ? "Hide quoted text" : "Show quoted text"}
    </button>
  ) : null;

  if (body.kind === "empty") return <p className="text-sm text-slate-500 italic">No content available</p>;
  if (body.kind === "html")
    return (
      <div>
        <EmailHtmlFrame
          html={folded && !showQuoted ? folded.main : body.content}
          senderAddress={message.fromAddress}
          title={`Message from ${message.fromName || message.fromAddress}`}
          attachments={message.attachments}
        />
        {toggle}
      </div>
    );
  return (
    <div className="text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">
      {folded ? folded.main : body.content}
      {toggle ? <div className="whitespace-normal">{toggle}</div> : null}
      {folded && showQuoted ? (
        <div id={quoteId} className="mt-2 border-l-2 border-slate-200 pl-3 text-slate-600">
          {folded.rest}
        </div>
      ) : null}
    </div>
  );
}
