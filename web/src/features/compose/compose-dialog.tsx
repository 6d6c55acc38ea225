import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Dialog, Tabs } from "radix-ui";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import type { DraftAttachment } from "../../../../contract/drafts.ts";
import type { Email } from "../../../../contract/mail.ts";
import type { HeldMail, HeldRequest, SendEmailAnswer } from "../../../../contract/outbox.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { toast } from "../../components/ui/toast-store.ts";
import { ApiError, apiRequest } from "../../lib/api.ts";
import { useAccounts } from "../accounts/use-accounts.ts";
import { copyText } from "../ai/copy.ts";
import { htmlToText } from "../mail-html/html-to-text.ts";
import { BTN_PRIMARY, BTN_SECONDARY, OVERLAY, SHEET_CONTENT } from "../reader/dialog-classes.ts";
import { useEmailDetail } from "../reader/use-email-detail.ts";
import { type AnswerMode, initialCompose } from "./compose-source.ts";
import type { MessageValue } from "./editor/message-editor.tsx";
import { defaultFromAccount, FromSelect } from "./from-select.tsx";
import { announceHeldSend, carriedFields, restoredDraft } from "./held-send.ts";
import { recipientError } from "./recipients/parse-recipients.ts";
import { RecipientField } from "./recipients/recipient-field.tsx";
import { type ComposeDraft, EMPTY_DRAFT } from "./reply.ts";
import { type FollowUpChoice, FollowUpSelect, followUpOf } from "./send-later/follow-up-select.tsx";
import { formatSendTime, toLocalInput } from "./send-later/schedule-times.ts";
import { outboxKeys } from "./send-later/scheduled-api.ts";
import { SendLaterMenu } from "./send-later/send-later-menu.tsx";
import { type Signature, withSignatureContent } from "./signature-html.ts";
import { useSignature } from "./use-signature.ts";

const TITLES: Record<AnswerMode, string> = { reply: "Reply", replyAll: "Reply all", forward: "Forward" };

// The rich-text editor (TipTap) is loaded with the first compose, not with the app (decision 0065).
const MessageEditor = lazy(() =>
  import("./editor/message-editor.tsx").then((m) => ({ default: m.MessageEditor })),
);

import { ComposeAttachments, useFileDrop } from "./attachments/compose-attachments.tsx";
import { useComposeAttachments } from "./attachments/use-compose-attachments.ts";
import { closeKeepingDraft } from "./drafts/close-keeping-draft.ts";
import { DraftStatus } from "./drafts/draft-status.tsx";
import { useDraft } from "./drafts/drafts-api.ts";
import { useDraftAutosave } from "./drafts/use-draft-autosave.ts";

/** Spec section 5, shown as it is written. */
export const MISSING_INFORMATION = "Missing information: Please fill in recipient, subject, and message";
/** To's inline error when Send finds it empty (issue 36: an empty To sends nothing). */
export const NO_RECIPIENT = "Add at least one recipient";

export interface ComposeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The email being answered (with its body), to prefill a reply that threads. */
  replyTo?: Email | null;
  /** Or only its id: the email (with its body) is read first. */
  replyToId?: string | null;
  /** A held mail taken back by Undo: compose reopens with it as it was sent. */
  initial?: HeldRequest | null;
  /** Reply (default), Reply all or Forward the email above (issue 36). */
  mode?: AnswerMode;
  /** Or a draft at the provider to reopen (GET /api/drafts/:id), saved and sent under its id. */
  draftId?: string | null;
  /** Or a scheduled mail to edit (issue 37): `initial` is its request; saving replaces it. */
  scheduled?: { id: string; sendAt: string } | null;
}

/** A reopened draft: its content, id, account and files. */
interface Reopened {
  draft: ComposeDraft;
  draftId: string;
  accountId: string;
  files: DraftAttachment[];
}

function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.message ? err.message : fallback;
}

/** The Compose/Reply dialog (spec section 2): fields reset each time it opens. */
export function ComposeDialog({
  open,
  onOpenChange,
  replyTo,
  replyToId,
  mode = "reply",
  initial,
  draftId,
  scheduled,
}: ComposeDialogProps) {
  const fetchId = !replyTo && replyToId && open ? replyToId : null;
  const detail = useEmailDetail(fetchId);
  const accounts = useAccounts();
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
        files: saved.data.attachments,
      }
    : null;
  // Reply all needs every own address before it can leave them out.
  const waiting =
    (fetchId !== null && source === null) ||
    (open && accounts.isLoading) ||
    (Boolean(draftId) && open && reopened === null);
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
                {draftId ? "Draft" : fetchId !== null || replyTo ? TITLES[mode] : "Compose Email"}
              </Dialog.Title>
              <Dialog.Description
                className="mt-2 text-sm text-slate-600"
                role={detail.isError || saved.isError ? "alert" : "status"}
              >
                {saved.isError
                  ? `The draft could not be opened. ${saved.error.message}`
                  : detail.isError
                    ? mode === "forward"
                      ? "The email you are forwarding could not be loaded."
                      : "The email you are replying to could not be loaded."
                    : "Loading…"}
              </Dialog.Description>
            </div>
          ) : (
            <ComposeForm
              key={`${reopened?.draftId ?? source?.id ?? "new"}:${mode}`}
              replyTo={source}
              mode={mode}
              initial={initial ?? null}
              scheduled={scheduled ?? null}
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
  mode,
  initial,
  scheduled,
  reopened,
  requestClose,
  onClose,
}: {
  replyTo: Email | null;
  mode: AnswerMode;
  /** A held mail given back by Undo: it reopens as it was sent. */
  initial: HeldRequest | null;
  /** The scheduled mail being edited: Save replaces it and keeps its time unless one is picked. */
  scheduled: { id: string; sendAt: string } | null;
  /** A draft at the provider reopened from the Drafts card. */
  reopened: Reopened | null;
  requestClose: React.RefObject<(() => void) | null>;
  onClose: () => void;
}) {
  const ids = useId();
  const { accounts } = useAccounts();
  const [start] = useState(() =>
    initialCompose(
      replyTo,
      mode,
      accounts.map((a) => a.email),
      htmlToText,
    ),
  );
  const [draft, setDraft] = useState<ComposeDraft>(() =>
    initial ? restoredDraft(initial) : reopened ? reopened.draft : start.draft,
  );
  const [fromId, setFromId] = useState(
    () =>
      initial?.accountId ?? reopened?.accountId ?? defaultFromAccount(accounts, replyTo?.accountId ?? null),
  );
  // Bumped when the Message is replaced from outside (AI, signature): the editor remounts with the new text.
  const [editorRevision, setEditorRevision] = useState(0);
  // The From account's signature goes above the quoted text; a new From swaps it (issue 36).
  const signature = useSignature(fromId);
  const signed = useRef<Signature | null>(null);
  const restored = initial !== null || reopened !== null;
  useEffect(() => {
    if (signature === undefined) return;
    const previous = signed.current;
    if (previous?.html === signature.html && previous.text === signature.text) return;
    signed.current = signature;
    // A mail given back by Undo, or a reopened draft, carries its signature already.
    if (previous === null && (restored || (signature.text === "" && signature.html === ""))) return;
    setDraft((d) => ({ ...d, ...withSignatureContent(d, previous, signature) }));
    setEditorRevision((n) => n + 1);
  }, [signature, restored]);
  // Files: uploads, a forward's originals and a reopened draft's (removable like the rest); the From account's
  // provider decides the limit shown before an upload.
  const files = useComposeAttachments({
    drafted: reopened?.files ?? [],
    provider: accounts.find((a) => a.id === fromId)?.provider ?? replyTo?.provider,
    originals: start.files.map((f) => ({
      emailId: f.ref.kind === "original" ? f.ref.emailId : "",
      attachmentId: f.ref.kind === "original" ? f.ref.attachmentId : "",
      fileName: f.fileName,
      size: f.size,
    })),
  });
  // Saved at the provider about two seconds after typing stops (issue 36), files included (a
  // mail taken back by Undo carries its files unseen, as held, so its draft's files are left alone).
  const autosave = useDraftAutosave(
    {
      ...draft,
      ...(fromId ? { accountId: fromId } : {}),
      ...(replyTo ? { inReplyToId: replyTo.id } : {}),
      ...(initial ? {} : { attachments: files.refs }),
    },
    reopened?.draftId ?? initial?.draftId ?? null,
    initial ? undefined : files,
  );
  const close = () => void closeKeepingDraft(autosave, onClose);
  requestClose.current = close;
  useEffect(
    () => () => {
      requestClose.current = null;
    },
    [requestClose],
  );
  const [showCopies, setShowCopies] = useState(() =>
    initial
      ? (initial.cc ?? "") !== ""
      : reopened
        ? Boolean(reopened.draft.cc || reopened.draft.bcc)
        : start.draft.cc !== "",
  );
  const [triedSend, setTriedSend] = useState(false);
  const [tab, setTab] = useState<"compose" | "assist">("compose");
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const replaceBody = (body: string) => {
    setDraft((d) => ({ ...d, body, html: undefined }));
    setEditorRevision((n) => n + 1);
  };
  const setMessage = ({ body, html }: MessageValue) => setDraft((d) => ({ ...d, body, html }));
  const drop = useFileDrop(files.add);
  const set = (field: keyof ComposeDraft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [field]: e.target.value }));

  // Issue 37: "Remind me if no reply in", none by default (an edited mail keeps its own).
  const [followUp, setFollowUp] = useState<{ choice: FollowUpChoice; date: string }>(() => {
    const kept = initial?.followUp;
    if (!kept) return { choice: "", date: "" };
    if ("days" in kept) return { choice: String(kept.days) as FollowUpChoice, date: "" };
    return { choice: "date", date: toLocalInput(new Date(kept.at)) };
  });
  const queryClient = useQueryClient();

  const send = useMutation({
    mutationFn: async ({ d, sendAt }: { d: ComposeDraft; sendAt?: string }) => {
      // No save may follow the send (it would make the draft again); the one in flight ends first,
      // and the files it put on the draft are sent as the draft's.
      const draftId = await autosave.stop();
      const refs = files.currentRefs();
      const { followUp: _kept, sendAt: _at, ...carried } = initial ? carriedFields(initial, d) : {};
      const reminder = followUpOf(followUp.choice, followUp.date);
      const body = {
        ...carried,
        ...d,
        ...(fromId ? { accountId: fromId } : {}),
        ...(replyTo ? { inReplyToId: replyTo.id, mode } : {}),
        ...(refs.length > 0 ? { attachments: refs } : {}),
        ...(draftId ? { draftId } : {}),
        ...(reminder ? { followUp: reminder } : {}),
        ...(sendAt ? { sendAt } : {}),
      };
      if (scheduled) {
        const saved = await apiRequest<HeldMail>("PUT", `/api/outbox/${scheduled.id}`, body);
        return { kind: "scheduled" as const, sendAt: saved.sendAt };
      }
      const answer = await apiRequest<SendEmailAnswer>("POST", "/api/emails/send", body);
      return sendAt
        ? { kind: "scheduled" as const, sendAt: answer.sendAt }
        : { kind: "held" as const, answer };
    },
    onSuccess: (result) => {
      autosave.sent();
      if (result.kind === "held") announceHeldSend(result.answer);
      else toast({ title: `Scheduled for ${formatSendTime(result.sendAt)}` });
      void queryClient.invalidateQueries({ queryKey: outboxKeys.list });
      setDraft(EMPTY_DRAFT);
      setEditorRevision((n) => n + 1);
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
      replaceBody(answer.improvedText);
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
    if (ready()) send.mutate({ d: draft });
  }

  /** Send later: the same checks as Send, then the mail is stored for its time. */
  function sendLater(at: Date) {
    if (ready()) send.mutate({ d: draft, sendAt: at.toISOString() });
  }

  /** The form's checks before anything goes to the server; false (and a message) when one fails. */
  function ready(): boolean {
    setTriedSend(true);
    if (!draft.to.trim() || !draft.subject.trim() || !draft.body.trim()) {
      toast({ title: MISSING_INFORMATION, variant: "destructive" });
      return false;
    }
    // A malformed address is refused here, with the message its field shows, before any request.
    for (const field of ["to", "cc", "bcc"] as const) {
      const problem = recipientError(draft[field]);
      if (problem === null) continue;
      if (field !== "to") setShowCopies(true);
      toast({ title: "Send failed", description: `Invalid ${field}: ${problem}`, variant: "destructive" });
      return false;
    }
    if (files.uploading || files.failed) {
      toast({
        title: files.uploading
          ? "Attachments are still uploading"
          : "Remove the files that could not be attached",
        variant: "destructive",
      });
      return false;
    }
    return true;
  }
  const setRecipients = (field: "to" | "cc" | "bcc") => (value: string) =>
    setDraft((d) => ({ ...d, [field]: value }));

  const busy = send.isPending;
  return (
    <form
      onSubmit={submit}
      // Ctrl+Enter (Cmd+Enter on a Mac) sends from any field (issue 36).
      onKeyDown={(e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.nativeEvent.isComposing) {
          e.preventDefault();
          e.currentTarget.requestSubmit();
        }
      }}
      className={`flex min-h-0 flex-1 flex-col ${drop.over ? "outline-2 outline-dashed outline-brand-600" : ""}`}
      noValidate
      {...drop.handlers}
    >
      <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-4 pt-4 pb-3 sm:px-6">
        <div>
          <Dialog.Title className="text-lg font-semibold text-slate-900">
            {replyTo ? TITLES[mode] : "Compose Email"}
          </Dialog.Title>
          <Dialog.Description className="mt-0.5 text-sm text-slate-600">
            {replyTo
              ? `${mode === "forward" ? "Forwarding an email from" : "Replying to"} ${replyTo.fromName || replyTo.fromAddress}`
              : "Write a new email"}
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
          <FromSelect
            id={`${ids}-from`}
            accounts={accounts}
            value={fromId}
            onChange={setFromId}
            className={input}
            labelClassName={label}
          />
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
            <RecipientField
              inputId={`${ids}-to`}
              placeholder="recipient@example.com"
              value={draft.to}
              onChange={setRecipients("to")}
              error={triedSend && draft.to.trim() === "" ? NO_RECIPIENT : null}
            />
          </div>
          {showCopies ? (
            <div id={`${ids}-copies`} className="grid gap-3 sm:grid-cols-2">
              <div>
                <label htmlFor={`${ids}-cc`} className={label}>
                  Cc
                </label>
                <RecipientField inputId={`${ids}-cc`} value={draft.cc} onChange={setRecipients("cc")} />
              </div>
              <div>
                <label htmlFor={`${ids}-bcc`} className={label}>
                  Bcc
                </label>
                <RecipientField inputId={`${ids}-bcc`} value={draft.bcc} onChange={setRecipients("bcc")} />
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
            {/* The editable area is named by this (spec: the Message field). */}
            <span id={`${ids}-body-label`} className={label}>
              Message
            </span>
            <Suspense
              fallback={
                <div
                  className="min-h-32 rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-500 sm:min-h-48"
                  role="status"
                >
                  Loading editor…
                </div>
              }
            >
              <MessageEditor
                key={editorRevision}
                labelId={`${ids}-body-label`}
                initialText={draft.body}
                initialHtml={draft.html}
                onChange={setMessage}
              />
            </Suspense>
          </div>
          <ComposeAttachments state={files} />
          <FollowUpSelect
            choice={followUp.choice}
            date={followUp.date}
            onChange={(choice, date) => setFollowUp({ choice, date })}
          />
          {scheduled ? (
            <p className="text-sm text-slate-600">Scheduled for {formatSendTime(scheduled.sendAt)}</p>
          ) : null}
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
                        replaceBody(s);
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
        <div className="ml-auto flex flex-wrap justify-end gap-2">
          <button type="button" className={BTN_SECONDARY} onClick={close}>
            Cancel
          </button>
          <SendLaterMenu
            disabled={busy}
            label={scheduled ? "Change time" : "Send later"}
            onPick={sendLater}
          />
          <button type="submit" className={BTN_PRIMARY} disabled={busy} aria-busy={busy || undefined}>
            {scheduled ? (busy ? "Saving…" : "Save") : busy ? "Sending…" : "Send"}
          </button>
        </div>
      </div>
    </form>
  );
}
