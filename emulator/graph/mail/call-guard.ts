import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../../context.ts";
import type { Identity } from "../../identities.ts";
import { authenticate } from "../../mailbox/access.ts";
import type { MailServices } from "../../mailbox/services.ts";
import { sendGraphError, sendKnownGraphError } from "./errors.ts";

// Graph mail and Graph calendar stand in for one Outlook: the same 401/403 answers and the same
// per-mailbox concurrency limit, so a calendar call and a mail call contend like they do at
// Microsoft. Both plugins admit their calls here.

const releases = new WeakMap<FastifyRequest, () => void>();

/**
 * Authentication (401), then permission (403): the caller's identity, or undefined once the
 * error has been answered.
 */
export function authorizeGraphCall(
  context: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { allows: (scopes: readonly string[]) => boolean; now: number },
): Identity | undefined {
  const { now } = input;
  const access = authenticate(context, request, "microsoft");
  if (!access.ok) {
    sendKnownGraphError(
      reply,
      access.failure === "missing"
        ? "unauthenticated"
        : access.failure === "expired"
          ? "expired"
          : "invalidToken",
      now,
    );
    return undefined;
  }
  if (!input.allows(access.scopes)) {
    sendKnownGraphError(reply, "accessDenied", now);
    return undefined;
  }
  return access.identity;
}

/**
 * Outlook's per-mailbox throttling (429 with Retry-After), then injected faults while the call
 * holds its concurrency slot, like a slow backend would. Answers the slot's release, or undefined
 * once the call was refused or dropped. The slot is freed by releaseMailboxSlot when the
 * response ends or the request is aborted.
 */
export async function holdMailboxSlot(
  mail: MailServices,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { mailboxKey: string; injectFaults: boolean; now: number },
): Promise<(() => void) | undefined> {
  const slot = mail.throttle.acquire(input.mailboxKey);
  if (!slot.ok) {
    reply.header("retry-after", String(slot.retryAfterSeconds));
    sendGraphError(reply, 429, slot.code, "Application is over its MailboxConcurrency limit.", input.now);
    return undefined;
  }
  releases.set(request, slot.release);
  if (input.injectFaults) {
    const outcome = await mail.faults.apply("microsoft", request, reply);
    if (outcome === "drop") {
      slot.release();
      return undefined;
    }
    if (outcome === "error") {
      sendKnownGraphError(reply, "unavailable", input.now);
      return undefined;
    }
  }
  return slot.release;
}

/** For the onResponse and onRequestAbort hooks: frees the slot holdMailboxSlot took, if any. */
export async function releaseMailboxSlot(request: FastifyRequest): Promise<void> {
  releases.get(request)?.();
}
