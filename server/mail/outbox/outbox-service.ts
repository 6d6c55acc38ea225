import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { sendEmailRequestSchema } from "../../../contract/mail.ts";
import type { HeldMail, OutboxList, SendEmailAnswer, UndoAnswer } from "../../../contract/outbox.ts";
import type { Db } from "../../db/client.ts";
import { type dueActions, users } from "../../db/schema.ts";
import { DomainError } from "../../http/errors.ts";
import type { ClaimedAction, DueActionStore } from "../../jobs/due-actions/store.ts";
import type { Clock } from "../../lib/clock.ts";
import type { MailSender, SendRequest } from "../mail-sender.ts";
import { sendDelayOf } from "./send-delay.ts";

/** The due action kind of a held mail. Send later (issue 37) can schedule the same kind. */
export const SEND_ACTION = "send";

/** What a held mail's due action carries: the whole compose request and the Message-ID it goes with. */
const heldPayloadSchema = z.object({ request: sendEmailRequestSchema, messageId: z.string() });
type HeldPayload = z.infer<typeof heldPayloadSchema>;

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  store: DueActionStore;
  sender: MailSender;
  /** Runs a held mail now in this process (a delay of 0); never throws. */
  runNow: (id: string) => Promise<void>;
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

  return {
    async hold(userId: string, request: SendRequest): Promise<SendEmailAnswer> {
      // Bad input fails here, synchronously, exactly as an immediate send would.
      const account = await sender.check(userId, request);
      const delay = await delayOf(userId);
      const messageId = newMessageId(account.email);
      // The account is fixed now: the mail goes from the account the person saw in compose.
      const payload: HeldPayload = { request: { ...request, accountId: account.id }, messageId };
      const held = await store.schedule({
        userId,
        kind: SEND_ACTION,
        runAt: new Date(clock.nowMs() + delay * 1000),
        payload,
        ref: messageId,
      });
      // No Undo delay: sent now, in this process, so the answer comes after the provider's.
      if (delay === 0) await deps.runNow(held.id);
      return { success: true, outboxId: held.id, sendAt: held.runAt.toISOString(), delaySeconds: delay };
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
        if (action.attempts > 1 && (await sender.alreadySent(action.userId, request, messageId))) return;
        await sender.send(action.userId, request, { messageId });
        // The sender deletes the uploads a sent mail used; a mail found already sent leaves them
        // to the uploads' 24-hour expiry.
      } catch (err) {
        throw asRunFailure(err);
      }
    },
  };
}

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
