import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { sendEmailRequestSchema } from "../../../contract/mail.ts";
import type {
  HeldMail,
  OutboxList,
  SendEmailAnswer,
  SendNowAnswer,
  UndoAnswer,
} from "../../../contract/outbox.ts";
import { ALREADY_SENT_MESSAGE, BEING_SENT_MESSAGE } from "../../../contract/scheduled.ts";
import type { Db } from "../../db/client.ts";
import { type dueActions, users } from "../../db/schema.ts";
import { DomainError } from "../../http/errors.ts";
import type { ClaimedAction, DueActionStore } from "../../jobs/due-actions/store.ts";
import type { ClaimHere } from "../../jobs/due-actions/sweeper.ts";
import type { Clock } from "../../lib/clock.ts";
import type { FollowUps } from "../followups/followup-service.ts";
import type { MailSender, SendRequest } from "../mail-sender.ts";
import { parseRecipients } from "../recipients.ts";
import { checkFollowUp, checkSendAt, followUpTime } from "./schedule-times.ts";
import type { ScheduledStore } from "./scheduled-store.ts";
import { sendDelayOf } from "./send-delay.ts";

/** The due action kind of a held mail. Send later (issue 37) can schedule the same kind. */
export const SEND_ACTION = "send";

/**
 * What a held mail's due action carries: the whole compose request (without its sendAt, which is
 * the row's run_at) and the Message-ID it goes with; `scheduled` when the person chose the time.
 */
const heldPayloadSchema = z.object({
  request: sendEmailRequestSchema,
  messageId: z.string(),
  scheduled: z.boolean().optional(),
});
type HeldPayload = z.infer<typeof heldPayloadSchema>;

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  store: DueActionStore;
  scheduled: ScheduledStore;
  sender: MailSender;
  followUps: FollowUps;
  /** Deletes uploads by id (a cancelled scheduled mail's files). */
  discardUploads: (userId: string, ids: readonly string[]) => Promise<void>;
  log?: { warn(obj: object, msg: string): void };
  /** Deletes the provider draft a mail was written in; throws when the provider did not. */
  removeDraft?: (userId: string, draftId: string) => Promise<unknown>;
  /** Runs in this process, before answering, the held mail that `claim` takes (sweeper.runClaimed). */
  runClaimed: <A extends ClaimedAction | null>(claim: ClaimHere<A>) => Promise<A>;
}

/** A Message-ID of our own, on the sending account's domain, fixed before the first try. */
function newMessageId(accountEmail: string): string {
  const domain = accountEmail.split("@")[1]?.toLowerCase() || "mailwise.invalid";
  return `<${randomUUID()}@${domain}>`;
}

function present(row: typeof dueActions.$inferSelect): HeldMail | null {
  const payload = heldPayloadSchema.safeParse(row.payload);
  if (!payload.success) return null;
  const status = row.status === "running" ? "sending" : row.status === "failed" ? "failed" : "pending";
  return {
    id: row.id,
    status,
    sendAt: row.runAt.toISOString(),
    // A pending retry keeps its last error too; the person sees why it is late.
    error: row.lastError,
    attempts: row.attempts,
    scheduled: payload.data.scheduled === true,
    request: payload.data.request,
  };
}

/** A held mail in words, for the list of failed actions: Send “<subject>” to <first recipient>. */
export function describeHeldMail(payload: unknown): string | null {
  const parsed = heldPayloadSchema.safeParse(payload);
  if (!parsed.success) return null;
  const { subject, to } = parsed.data.request;
  const first = to.split(",")[0]?.trim() ?? "";
  const more = to.includes(",") ? " and others" : "";
  const shown = subject.trim() || "(no subject)";
  // A sender-length subject would swamp the banner; the person recognises the start.
  const short = shown.length > 80 ? `${shown.slice(0, 79)}…` : shown;
  return `Send “${short}” to ${first}${more}`;
}

/**
 * Held mail, "Undo send" (issue 36, decision 0069): a send is checked at once, then stored as a
 * due action at now + the person's delay and sent by the worker's sweep, so closing the tab
 * neither loses nor cancels it.
 */
export function createOutbox(deps: OutboxDeps) {
  const { db, clock, store, sender } = deps;

  async function delayOf(userId: string): Promise<number> {
    const [row] = await db.select({ delay: users.sendDelaySeconds }).from(users).where(eq(users.id, userId));
    if (!row) throw new DomainError("not_found", "No such user.");
    return sendDelayOf(row.delay);
  }

  /** Why a change to a mail not waiting any more is refused: 404 when there is none, else 409. */
  async function refuseChange(userId: string, id: string): Promise<never> {
    const row = await store.get(userId, id, SEND_ACTION);
    if (!row) throw notWaiting();
    if (row.status === "done") throw new DomainError("conflict", ALREADY_SENT_MESSAGE);
    throw new DomainError("conflict", BEING_SENT_MESSAGE);
  }

  async function waiting(userId: string, id: string): Promise<HeldPayload> {
    const row = await store.get(userId, id, SEND_ACTION);
    if (!row) throw notWaiting();
    const payload = heldPayloadSchema.safeParse(row.payload);
    if (row.status === "done" || !payload.success) throw new DomainError("conflict", ALREADY_SENT_MESSAGE);
    return payload.data;
  }

  /**
   * A scheduled mail lives here, not in the person's Drafts: its provider draft goes now (else it
   * would sit in Drafts for days and could be sent a second time from there). A draft the
   * provider would not delete stays named in the request, for the send to remove.
   */
  async function withoutDraft(userId: string, request: SendRequest): Promise<SendRequest> {
    const { draftId, ...rest } = request;
    if (!draftId || !deps.removeDraft) return request;
    try {
      await deps.removeDraft(userId, draftId);
      return rest;
    } catch {
      return request;
    }
  }

  /** The reminder of a sent mail, when compose asked for one (idempotent per Message-ID). */
  async function remind(action: ClaimedAction, payload: HeldPayload): Promise<void> {
    const { request, messageId } = payload;
    if (!request.followUp || !request.accountId) return;
    const sentAt = clock.nowMs();
    // The request was checked before it was held, so each list parses; the reminder needs bare addresses.
    const recipients = [request.to, request.cc, request.bcc].flatMap((list) => {
      const parsed = parseRecipients(list ?? "");
      return parsed.ok ? parsed.addresses.map((a) => a.address.toLowerCase()) : [];
    });
    await deps.followUps.schedule(
      action.userId,
      { accountId: request.accountId, messageId, recipients, sentAt: new Date(sentAt).toISOString() },
      followUpTime(request.followUp, sentAt),
    );
  }

  return {
    async hold(userId: string, input: SendRequest): Promise<SendEmailAnswer> {
      const { sendAt, ...request } = input;
      const now = clock.nowMs();
      // Send later (issue 37): the chosen time, checked against the server's clock.
      const chosen = sendAt === undefined ? undefined : checkSendAt(sendAt, now);
      // Bad input fails here, synchronously, exactly as an immediate send would.
      const account = await sender.check(userId, request);
      const delay = chosen ? 0 : await delayOf(userId);
      const runAt = chosen ?? new Date(now + delay * 1000);
      checkFollowUp(request.followUp, runAt.getTime(), now);
      const messageId = newMessageId(account.email);
      // The account is fixed now: the mail goes from the account the person saw in compose.
      const kept = chosen ? await withoutDraft(userId, request) : request;
      const payload: HeldPayload = {
        request: { ...kept, accountId: account.id },
        messageId,
        ...(chosen ? { scheduled: true } : {}),
      };
      const action = { userId, kind: SEND_ACTION, runAt, payload, ref: messageId };
      // No Undo delay: sent now, in this process, so the answer comes after the provider's.
      const held =
        !chosen && delay === 0
          ? await deps.runClaimed((worker, at, lease) => store.scheduleClaimed(action, worker, at, lease))
          : await store.schedule(action);
      return { success: true, outboxId: held.id, sendAt: held.runAt.toISOString(), delaySeconds: delay };
    },

    /** Reschedule (PATCH /api/outbox/:id): a new time while the mail still waits, else 409. */
    async reschedule(userId: string, id: string, sendAt: string): Promise<HeldMail> {
      const at = checkSendAt(sendAt, clock.nowMs());
      const current = await waiting(userId, id);
      checkFollowUp(current.request.followUp, at.getTime(), clock.nowMs());
      if (!(await deps.scheduled.moveTo(userId, id, SEND_ACTION, at))) await refuseChange(userId, id);
      return this.get(userId, id);
    },

    /**
     * Edit (PUT /api/outbox/:id): the reopened compose saved again. It replaces the mail's content
     * and keeps its time unless a new one comes; the Message-ID stays, so a retry still finds it.
     */
    async replace(userId: string, id: string, input: SendRequest): Promise<HeldMail> {
      const { sendAt, ...request } = input;
      const now = clock.nowMs();
      const chosen = sendAt === undefined ? undefined : checkSendAt(sendAt, now);
      const row = await store.get(userId, id, SEND_ACTION);
      if (!row) throw notWaiting();
      const current = heldPayloadSchema.safeParse(row.payload);
      // A sent mail keeps no content: it answers 409 like any change that came too late.
      if (!current.success || row.status === "done" || row.status === "running")
        return refuseChange(userId, id);
      const account = await sender.check(userId, request);
      const runAt = chosen ?? row.runAt;
      checkFollowUp(request.followUp, runAt.getTime(), now);
      const payload: HeldPayload = {
        request: { ...(await withoutDraft(userId, request)), accountId: account.id },
        messageId: current.data.messageId,
        scheduled: current.data.scheduled === true || chosen !== undefined,
      };
      if (!(await deps.scheduled.replace(userId, id, SEND_ACTION, payload, runAt)))
        await refuseChange(userId, id);
      return this.get(userId, id);
    },

    /** Send now (POST /api/outbox/:id/send): due at once and run in this process. */
    async sendNow(userId: string, id: string): Promise<SendNowAnswer> {
      const ran = await deps.runClaimed((worker, at, lease) =>
        deps.scheduled.claimNow(userId, id, SEND_ACTION, worker, at, lease),
      );
      if (!ran) await refuseChange(userId, id);
      const row = await store.get(userId, id, SEND_ACTION);
      const held = row && row.status !== "done" ? present(row) : null;
      return { sent: held === null, item: held };
    },

    /** Cancel from the Scheduled list: the mail and its uploaded files are gone; 409 once it went. */
    async cancel(userId: string, id: string): Promise<void> {
      const taken = await store.cancel(userId, id, SEND_ACTION);
      if (taken === null) await refuseChange(userId, id);
      const payload = heldPayloadSchema.safeParse(taken);
      const uploads = payload.success
        ? (payload.data.request.attachments ?? []).flatMap((a) => (a.kind === "upload" ? [a.uploadId] : []))
        : [];
      await deps.discardUploads(userId, uploads);
    },

    /** Undo: the request back, unless it is being sent or was sent (409). */
    async undo(userId: string, id: string): Promise<UndoAnswer> {
      const taken = await store.cancel(userId, id, SEND_ACTION);
      if (taken !== null) {
        const payload = heldPayloadSchema.parse(taken);
        return { request: payload.request };
      }
      const row = await store.get(userId, id, SEND_ACTION);
      if (!row) throw new DomainError("not_found", "No such mail waiting to be sent.");
      if (row.status === "done")
        throw new DomainError("conflict", "Too late to undo: this mail was already sent.");
      throw new DomainError("conflict", "Too late to undo: this mail is being sent.");
    },

    async get(userId: string, id: string): Promise<HeldMail> {
      const row = await store.get(userId, id, SEND_ACTION);
      const held = row ? present(row) : null;
      if (!held) throw new DomainError("not_found", "No such mail waiting to be sent.");
      return held;
    },

    async list(userId: string): Promise<OutboxList> {
      const rows = await store.listOpen(userId, SEND_ACTION);
      return { items: rows.map(present).filter((h): h is HeldMail => h !== null) };
    },

    /**
     * The sweep's handler. A retry (attempts > 1: an earlier run failed, or its worker died after
     * the provider call and before marking it done) first asks the provider whether the mail with
     * this Message-ID already went out, so a crash between sending and marking sends nothing twice.
     */
    async sendHeld(action: ClaimedAction): Promise<void> {
      const parsed = heldPayloadSchema.safeParse(action.payload);
      if (!parsed.success)
        throw Object.assign(new Error("The held mail is unreadable."), { kind: "permanent" });
      const { request, messageId } = parsed.data;
      try {
        if (action.attempts > 1 && (await sender.alreadySent(action.userId, request, messageId))) {
          // Its worker died after the send: the reminder may still be missing.
          await remind(action, parsed.data);
          return;
        }
        await sender.send(action.userId, request, { messageId });
        // The sender deletes the uploads a sent mail used; a mail found already sent leaves them
        // to the uploads' 24-hour expiry (they are no longer kept for it once it is done).
      } catch (err) {
        throw asRunFailure(err);
      }
      // After the send: a failure to store the reminder must not send the mail again.
      await remind(action, parsed.data).catch((err: unknown) =>
        deps.log?.warn(
          { actionId: action.id, reason: err instanceof Error ? err.message : "unknown" },
          "follow-up reminder not stored",
        ),
      );
    },
  };
}

const notWaiting = () => new DomainError("not_found", "No such mail waiting to be sent.");

/** A send error with the retry kind the sweep reads (retry-policy.ts) and a message for the person. */
function asRunFailure(err: unknown): Error & { kind: string } {
  const message = err instanceof Error ? err.message : "The mail could not be sent.";
  let kind = "transient";
  if (err instanceof DomainError) {
    if (err.code === "provider_reauth_required") kind = "reauth";
    else if (err.code === "provider_unavailable") {
      const cause = err.cause as { kind?: unknown; cause?: { kind?: unknown } } | undefined;
      const inner = cause?.kind ?? cause?.cause?.kind;
      kind = typeof inner === "string" ? inner : "transient";
    } else kind = "permanent";
  }
  const failure = Object.assign(new Error(message), { kind });
  failure.cause = err;
  return failure;
}

export type Outbox = ReturnType<typeof createOutbox>;
