import DOMPurify from "dompurify";
import { useEffect, useId, useRef, useState } from "react";
import type { MailAccount } from "../../../../contract/auth.ts";
import { toast } from "../../components/ui/toast-store.ts";
import { ApiError } from "../../lib/api.ts";
import { useSaveSignature, useSignature } from "../compose/use-signature.ts";

const tool =
  "rounded border border-slate-300 px-2 py-0.5 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600";

/**
 * One account's signature (issue 36): a small rich-text field with bold, italic, underline and
 * link, saved with PUT /api/accounts/:id/signature (the server sanitizes it). Its own file so the
 * shared rich-text editor can replace the contentEditable later.
 */
export function SignatureEditor({ account }: { account: MailAccount }) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className="w-full">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={`${ids}-signature`}
        onClick={() => setOpen((v) => !v)}
        className="rounded px-1 text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        Signature
      </button>
      {open ? <SignatureForm id={`${ids}-signature`} account={account} /> : null}
    </div>
  );
}

function SignatureForm({ id, account }: { id: string; account: MailAccount }) {
  const signature = useSignature(account.id);
  const save = useSaveSignature(account.id);
  const field = useRef<HTMLDivElement>(null);
  const loaded = useRef(false);
  useEffect(() => {
    if (signature === undefined || loaded.current || !field.current) return;
    loaded.current = true;
    field.current.innerHTML = DOMPurify.sanitize(signature.html);
  }, [signature]);

  const format = (command: "bold" | "italic" | "underline" | "createLink") => {
    field.current?.focus();
    if (command === "createLink") {
      const url = window.prompt("Link address (https://…)");
      if (url) document.execCommand("createLink", false, url);
      return;
    }
    document.execCommand(command);
  };

  return (
    <section id={id} aria-label={`Signature for ${account.email}`} className="mt-2 space-y-2">
      <div role="toolbar" aria-label="Signature formatting" className="flex gap-1">
        <button
          type="button"
          className={tool}
          aria-label="Bold"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => format("bold")}
        >
          <b>B</b>
        </button>
        <button
          type="button"
          className={tool}
          aria-label="Italic"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => format("italic")}
        >
          <i>I</i>
        </button>
        <button
          type="button"
          className={tool}
          aria-label="Underline"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => format("underline")}
        >
          <u>U</u>
        </button>
        <button
          type="button"
          className={tool}
          aria-label="Link"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => format("createLink")}
        >
          Link
        </button>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: rich text needs a contentEditable; a textarea holds only plain text */}
      <div
        ref={field}
        role="textbox"
        aria-multiline="true"
        aria-label="Signature"
        tabIndex={0}
        contentEditable={signature !== undefined}
        suppressContentEditableWarning
        className="min-h-20 rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 focus:border-brand-600 focus:outline-2 focus:outline-brand-600"
      />
      <button
        type="button"
        disabled={save.isPending || signature === undefined}
        aria-busy={save.isPending || undefined}
        className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60"
        onClick={() =>
          save.mutate(field.current?.innerHTML ?? "", {
            onSuccess: (saved) => {
              if (field.current) field.current.innerHTML = DOMPurify.sanitize(saved.html);
              toast({ title: "Signature saved" });
            },
            onError: (err) =>
              toast({
                title: "Signature not saved",
                description: err instanceof ApiError && err.message ? err.message : "Please try again.",
                variant: "destructive",
              }),
          })
        }
      >
        Save signature
      </button>
    </section>
  );
}
