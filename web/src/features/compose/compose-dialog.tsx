import { useMutation } from "@tanstack/react-query";
import { Dialog, Tabs } from "radix-ui";
import { useEffect, useId, useRef, useState } from "react";
import type { Email } from "../../../../contract/mail.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { toast } from "../../components/ui/toast-store.ts";
import { ApiError, apiRequest } from "../../lib/api.ts";
import { copyText } from "../ai/copy.ts";
import { htmlToText } from "../mail-html/html-to-text.ts";
import { BTN_PRIMARY, BTN_SECONDARY, OVERLAY, SHEET_CONTENT } from "../reader/dialog-classes.ts";
import { useEmailDetail } from "../reader/use-email-detail.ts";
import { closeKeepingDraft } from "./drafts/close-keeping-draft.ts";
import { DraftStatus } from "./drafts/draft-status.tsx";
import { useDraft } from "./drafts/drafts-api.ts";
import { useDraftAutosave } from "./drafts/use-draft-autosave.ts";
import { type ComposeDraft, EMPTY_DRAFT, replyDraft } from "./reply.ts";

/** Spec section 5, shown as it is written. */
export const MISSING_INFORMATION = "Missing information: Please fill in recipient, subject, and message";

export interface ComposeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The email being answered (with its body), to prefill a reply that threads. */
  replyTo?: Email | null;
  /** Or only its id: the email (with its body) is read first. */
  replyToId?: string | null;
  /** Or a draft at the provider to reopen (GET /api/drafts/:id), saved and sent under its id. */
  draftId?: string | null;
}

/** A reopened draft: its content, id and account. */
interface Reopened {
  draft: ComposeDraft;
  draftId: string;
  accountId: string;
}

function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.message ? err.message : fallback;
}

/** The Compose/Reply dialog (spec section 2): fields reset each time it opens. */
export function ComposeDialog({ open, onOpenChange, replyTo, replyToId, draftId }: ComposeDialogProps) {
  const fetchId = !replyTo && replyToId && open ? replyToId : null;
  const detail = useEmailDetail(fetchId);
  const source = replyTo ?? (fetchId && !detail.isPlaceholderData ? (detail.data ?? null) : null);
  const saved = useDraft(open && draftId ? draftId : null);
  const reopened: Reopened | null = saved.data
    ? {
        draft: {
          to: saved.data.to,
          cc: saved.data.cc,
          bcc: saved.data.bcc,
          subject: saved.data.subject,
          body: saved.data.body,
        },
        draftId: saved.data.id,
        accountId: saved.data.accountId,
      }
    : null;
  const waiting = (fetchId !== null && source === null) || (Boolean(draftId) && open && reopened === null);
  // Escape, a click outside and × ask the form first: it keeps the draft (issue 36).
  const requestClose = useRef<(() => void) | null>(null);
  const closeFirst = (e: Event) => {
    if (!requestClose.current) return;
    e.preventDefault();
    requestClose.current();
  };
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={OVERLAY} />
        <Dialog.Content
          className={`${SHEET_CONTENT} sm:max-w-2xl`}
          onEscapeKeyDown={closeFirst}
          onInteractOutside={closeFirst}
        >
          {/* Mounted only while open, so each opening starts from a fresh (or reply) draft. */}
          {waiting ? (
            <div className="p-6">
              <Dialog.Title className="text-lg font-semibold text-slate-900">
                {draftId ? "Draft" : "Reply"}
              </Dialog.Title>
              <Dialog.Description
                className="mt-2 text-sm text-slate-600"
                role={detail.isError || saved.isError ? "alert" : "status"}
              >
                {saved.isError
                  ? `The draft could not be opened. ${saved.error.message}`
                  : detail.isError
                    ? "The email you are replying to could not be loaded."
                    : "Loading…"}
              </Dialog.Description>
            </div>
          ) : (
            <ComposeForm
              key={reopened?.draftId ?? source?.id ?? "new"}
              replyTo={source}
              reopened={reopened}
              requestClose={requestClose}
              onClose={() => onOpenChange(false)}
            />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

const input =
  "w-full rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 focus:border-brand-600 focus:outline-2 focus:outline-brand-600";
const label = "mb-1 block text-sm font-medium text-slate-700";

function ComposeForm({
  replyTo,
  reopened,
  requestClose,
  onClose,
}: {
  replyTo: Email | null;
  reopened: Reopened | null;
  requestClose: React.RefObject<(() => void) | null>;
  onClose: () => void;
}) {
  const ids = useId();
  const [draft, setDraft] = useState<ComposeDraft>(() =>
    reopened ? reopened.draft : replyTo ? replyDraft(replyTo, htmlToText) : EMPTY_DRAFT,
  );
  const accountId = replyTo?.accountId ?? reopened?.accountId;
  const autosave = useDraftAutosave(
    { ...draft, ...(accountId ? { accountId } : {}), ...(replyTo ? { inReplyToId: replyTo.id } : {}) },
    reopened?.draftId ?? null,
  );
  const close = () => void closeKeepingDraft(autosave, onClose);
  requestClose.current = close;
  useEffect(
    () => () => {
      requestClose.current = null;
    },
    [requestClose],
  );
  const [showCopies, setShowCopies] = useState(Boolean(reopened?.draft.cc || reopened?.draft.bcc));
  const [tab, setTab] = useState<"compose" | "assist">("compose");
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const set = (field: keyof ComposeDraft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [field]: e.target.value }));

  const send = useMutation({
    mutationFn: async (d: ComposeDraft) => {
      // No save may follow the send (it would make the draft again); the one in flight ends first.
      const draftId = await autosave.stop();
      return apiRequest<unknown>("POST", "/api/emails/send", {
        ...d,
        ...(replyTo ? { inReplyToId: replyTo.id } : {}),
        ...(accountId ? { accountId } : {}),
        ...(draftId ? { draftId } : {}),
      });
    },
    onSuccess: () => {
      autosave.sent();
      toast({ title: "Email sent" });
      setDraft(EMPTY_DRAFT);
      onClose();
    },
    onError: (err) => {
      autosave.resume();
      toast({
        title: "Send failed",
        description: errorText(err, "Failed to send email"),
        variant: "destructive",
      });
    },
  });

  const suggest = useMutation({
    mutationFn: () => {
      const original = replyTo
        ? (replyTo.bodyText ?? (replyTo.bodyHtml ? htmlToText(replyTo.bodyHtml) : replyTo.snippet))
        : "";
      return apiRequest<{ suggestions: string[] }>("POST", "/api/ai/compose-suggestions", {
        subject: draft.subject,
        body: draft.body,
        replyTo: original,
      });
    },
    onSuccess: (answer) => {
      const unique = [...new Set(answer.suggestions ?? [])];
      if (unique.length === 0) {
        toast({
          title: "AI assistance failed",
          description: "Failed to generate AI suggestions",
          variant: "destructive",
        });
        return;
      }
      setSuggestions(unique);
      setTab("assist");
    },
    onError: (err) =>
      toast({
        title: "AI assistance failed",
        description: errorText(err, "Failed to generate AI suggestions"),
        variant: "destructive",
      }),
  });

  const improve = useMutation({
    mutationFn: (text: string) =>
      apiRequest<{ improvedText: string }>("POST", "/api/ai/improve-text", { text }),
    onSuccess: (answer) => {
      setDraft((d) => ({ ...d, body: answer.improvedText }));
      toast({ title: "Text improved" });
    },
    onError: (err) =>
      toast({
        title: "Text improvement failed",
        description: errorText(err, "Failed to improve text"),
        variant: "destructive",
      }),
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!draft.to.trim() || !draft.subject.trim() || !draft.body.trim()) {
      toast({ title: MISSING_INFORMATION, variant: "destructive" });
      return;
    }
    send.mutate(draft);
  }

  const busy = send.isPending;
  return (
    <form onSubmit={submit} className="flex min-h-0 flex-1 flex-col" noValidate>
      <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-4 pt-4 pb-3 sm:px-6">
        <div>
          <Dialog.Title className="text-lg font-semibold text-slate-900">
            {replyTo ? "Reply" : "Compose Email"}
          </Dialog.Title>
          <Dialog.Description className="mt-0.5 text-sm text-slate-600">
            {replyTo ? `Replying to ${replyTo.fromName || replyTo.fromAddress}` : "Write a new email"}
          </Dialog.Description>
        </div>
        <button
          type="button"
          onClick={close}
          aria-label="Close"
          className="shrink-0 rounded-lg px-2 py-1 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          ×
        </button>
      </div>

      <Tabs.Root
        value={tab}
        onValueChange={(v) => setTab(v === "assist" ? "assist" : "compose")}
        className="flex min-h-0 flex-1 flex-col"
      >
        <Tabs.List aria-label="Compose mode" className="flex gap-1 border-b border-slate-200 px-4 sm:px-6">
          {/* Spec: the AI Assist tab is shown after suggestions arrive. */}
          {(
            [
              ["compose", "Compose"],
              ...(suggestions.length > 0 ? ([["assist", "AI Assist"]] as const) : []),
            ] as const
          ).map(([value, text]) => (
            <Tabs.Trigger
              key={value}
              value={value}
              className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700"
            >
              {text}
            </Tabs.Trigger>
          ))}
        </Tabs.List>

        <Tabs.Content value="compose" className="min-h-0 flex-1 space-y-3 overflow-y-auto px-4 py-4 sm:px-6">
          <div>
            <div className="flex items-end justify-between gap-2">
              <label htmlFor={`${ids}-to`} className={label}>
                To
              </label>
              <button
                type="button"
                aria-expanded={showCopies}
                aria-controls={`${ids}-copies`}
                onClick={() => setShowCopies((v) => !v)}
                className="mb-1 rounded px-1 text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                Cc/Bcc
              </button>
            </div>
            <input
              id={`${ids}-to`}
              className={input}
              type="text"
              inputMode="email"
              autoComplete="email"
              placeholder="recipient@example.com"
              value={draft.to}
              onChange={set("to")}
            />
          </div>
          {showCopies ? (
            <div id={`${ids}-copies`} className="grid gap-3 sm:grid-cols-2">
              <div>
                <label htmlFor={`${ids}-cc`} className={label}>
                  Cc
                </label>
                <input
                  id={`${ids}-cc`}
                  className={input}
                  type="text"
                  inputMode="email"
                  value={draft.cc}
                  onChange={set("cc")}
                />
              </div>
              <div>
                <label htmlFor={`${ids}-bcc`} className={label}>
                  Bcc
                </label>
                <input
                  id={`${ids}-bcc`}
                  className={input}
                  type="text"
                  inputMode="email"
                  value={draft.bcc}
                  onChange={set("bcc")}
                />
              </div>
            </div>
          ) : null}
          <div>
            <label htmlFor={`${ids}-subject`} className={label}>
              Subject
            </label>
            <input
              id={`${ids}-subject`}
              className={input}
              type="text"
              value={draft.subject}
              onChange={set("subject")}
            />
          </div>
          <div>
            <label htmlFor={`${ids}-body`} className={label}>
              Message
            </label>
            <textarea
              id={`${ids}-body`}
              className={`${input} min-h-48 resize-y`}
              rows={10}
              value={draft.body}
              onChange={set("body")}
            />
          </div>
        </Tabs.Content>

        <Tabs.Content value="assist" className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6">
          {suggestions.length === 0 ? null : (
            <ul className="space-y-3" aria-label="AI suggestions">
              {suggestions.map((s, i) => (
                <li key={s} className="rounded-lg border border-slate-200 p-3">
                  <p className="text-sm whitespace-pre-wrap text-slate-800">{s}</p>
                  <div className="mt-2 flex flex-wrap gap-2">
                    <button
                      type="button"
                      className={BTN_SECONDARY}
                      onClick={() => {
                        setDraft((d) => ({ ...d, body: s }));
                        setTab("compose");
                        toast({ title: "Suggestion applied" });
                      }}
                    >
                      Use this suggestion
                    </button>
                    <button
                      type="button"
                      className={BTN_SECONDARY}
                      aria-label={`Copy suggestion ${i + 1}`}
                      onClick={() => void copyText(s)}
                    >
                      Copy
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Tabs.Content>
      </Tabs.Root>

      <div className="flex flex-wrap items-center gap-2 border-t border-slate-200 px-4 py-3 sm:px-6">
        <button
          type="button"
          className={BTN_SECONDARY}
          disabled={suggest.isPending}
          aria-busy={suggest.isPending || undefined}
          onClick={() => suggest.mutate()}
        >
          AI Suggest
        </button>
        <button
          type="button"
          className={BTN_SECONDARY}
          disabled={draft.body.trim() === "" || improve.isPending}
          aria-busy={improve.isPending || undefined}
          onClick={() => improve.mutate(draft.body)}
        >
          Improve
        </button>
        <DraftStatus status={autosave.status} error={autosave.error} />
        <div className="ml-auto flex gap-2">
          <button type="button" className={BTN_SECONDARY} onClick={close}>
            Cancel
          </button>
          <button type="submit" className={BTN_PRIMARY} disabled={busy} aria-busy={busy || undefined}>
            {busy ? "Sending…" : "Send"}
          </button>
        </div>
      </div>
    </form>
  );
}
