import { useSyncExternalStore } from "react";
import type { HeldMail, HeldRequest, SendEmailAnswer, UndoAnswer } from "../../../../contract/outbox.ts";
import { toast } from "../../components/ui/toast-store.ts";
import { ApiError, apiRequest } from "../../lib/api.ts";

/**
 * Undo send on the client (issue 36). The server holds the mail (GET/DELETE /api/outbox), so
 * closing the tab neither loses nor cancels it; this only offers Undo while it waits, reopens
 * compose with the request the server gives back, and tells the person if it could not be sent.
 */

/** Issue 36's toast text; its action button reads "Undo". */
export const SENDING_TITLE = "Sending…";
export const UNDO_LABEL = "Undo";

let reopened: HeldRequest | null = null;
const listeners = new Set<() => void>();

function setReopened(request: HeldRequest | null): void {
  reopened = request;
  for (const l of listeners) l();
}

/** The request an Undo gave back, until the compose dialog takes it (takeReopened). */
export function useReopenedCompose(): HeldRequest | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => reopened,
    () => reopened,
  );
}

export function takeReopened(): void {
  setReopened(null);
}

async function undo(outboxId: string): Promise<void> {
  try {
    const answer = await apiRequest<UndoAnswer>("DELETE", `/api/outbox/${outboxId}`);
    setReopened(answer.request);
  } catch (err) {
    toast({
      title: "Could not undo",
      description: err instanceof ApiError && err.message ? err.message : "The mail could not be taken back.",
      variant: "destructive",
    });
  }
}

const CHECKS = 6;
const CHECK_EVERY_MS = 3_000;

/** After its time, asks how the mail went: gone from the outbox is sent; failed is told. */
function watchOutcome(outboxId: string, afterMs: number): void {
  let left = CHECKS;
  const check = async () => {
    left -= 1;
    let held: HeldMail | null;
    try {
      held = await apiRequest<HeldMail>("GET", `/api/outbox/${outboxId}`);
    } catch (err) {
      // 404: sent (or undone). Anything else: look again later.
      if (err instanceof ApiError && err.status === 404) return;
      held = null;
    }
    if (held?.status === "failed") {
      toast({ title: `Not sent: ${held.error ?? "unknown reason"}`, variant: "destructive" });
      return;
    }
    if (left > 0) setTimeout(check, CHECK_EVERY_MS);
  };
  setTimeout(check, afterMs + CHECK_EVERY_MS);
}

/** The form's fields of a request given back by Undo. */
export function restoredDraft(request: HeldRequest): {
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  body: string;
} {
  return { to: request.to, cc: request.cc, bcc: request.bcc, subject: request.subject, body: request.body };
}

/**
 * What a reopened request carries beyond the form's fields (reply context, account, draft,
 * attachments, mode), sent again as they were; its HTML only while the text is unchanged, since
 * this form edits plain text (the rich-text editor keeps its own HTML).
 */
export function carriedFields(request: HeldRequest, form: { body: string }): Partial<HeldRequest> {
  const { to: _to, cc: _cc, bcc: _bcc, subject: _subject, body, html, ...rest } = request;
  return { ...rest, ...(html !== undefined && body === form.body ? { html } : {}) };
}

/** What Send shows: "Sending… Undo" for the person's delay (or "Email sent" when it is 0). */
export function announceHeldSend(answer: SendEmailAnswer): void {
  const delayMs = answer.delaySeconds * 1000;
  if (delayMs === 0) toast({ title: "Email sent" });
  else
    toast({
      title: SENDING_TITLE,
      durationMs: delayMs,
      action: {
        label: UNDO_LABEL,
        altText: "Undo send: take the mail back to compose",
        onClick: () => void undo(answer.outboxId),
      },
    });
  watchOutcome(answer.outboxId, delayMs);
}
