import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { UnsubscribeStatus } from "../../../contract/mail.ts";
import type { Db } from "../../db/client.ts";
import { emails, mailAccounts, unsubscribeRequests } from "../../db/schema.ts";
import type { EventBus } from "../../events.ts";
import { DomainError } from "../../http/errors.ts";
import type { Clock } from "../../lib/clock.ts";
import type { ProviderClientFactory } from "../../sync/types.ts";
import { syncAccountOf } from "../accounts.ts";
import { presentUnsubscribeStatus } from "../presenters.ts";
import { parseListUnsubscribe, type UnsubscribeOptions } from "./list-unsubscribe.ts";
import { postOneClick } from "./one-click.ts";

/** The job that does the network part; the payload is only the request's id. */
export const UNSUBSCRIBE_JOB = "mail.unsubscribe";
export const unsubscribeJobSchema = z.object({ requestId: z.string().uuid() });

/**
 * parseListUnsubscribe with one addition: a one-click target on an allow-listed host:port may be
 * plain http. The allow-list already exempts those hosts from the scheme check (it exists so
 * tests can point senders at a local server); production leaves it empty, so nothing changes there.
 */
export function unsubscribeOptions(
  listUnsubscribe: string | null,
  listUnsubscribePost: string | null,
  allowHosts: readonly string[],
): UnsubscribeOptions {
  const options = parseListUnsubscribe(listUnsubscribe, listUnsubscribePost);
  if (options.oneClickUrl || allowHosts.length === 0 || !listUnsubscribe) return options;
  if (!/^\s*List-Unsubscribe\s*=\s*One-Click\s*$/i.test(listUnsubscribePost ?? "")) return options;
  for (const [, uri = ""] of listUnsubscribe.matchAll(/<\s*(http:\/\/[^>\s]+)\s*>/gi)) {
    try {
      if (allowHosts.includes(new URL(uri).host)) return { ...options, oneClickUrl: uri };
    } catch {
      // not a URL: ignore it, as the parser does
    }
  }
  return options;
}

type Outcome = { status: "done" | "failed"; method: "one_click" | "mailto"; detail: string };

/**
 * POST /api/emails/unsubscribe. The request is recorded per sender and answered at once; the
 * network part runs in the background: RFC 8058 one-click POST (SSRF-guarded), else a mailto
 * sent from the user's own account, else the https link is handed to the user (never fetched,
 * as it may be a tracking or confirmation page that acts on a GET).
 */
export function createUnsubscriber(deps: {
  db: Db;
  clock: Clock;
  events: EventBus;
  providerClient: ProviderClientFactory;
  allowHosts: readonly string[];
  /** Runs `execute(requestId)` later: the job queue, or an in-process runner. */
  schedule: (requestId: string) => Promise<void>;
}) {
  const { db, clock } = deps;

  async function sendMailto(accountId: string, address: string, subject: string): Promise<Outcome> {
    const [account] = await db.select().from(mailAccounts).where(eq(mailAccounts.id, accountId));
    if (!account)
      return { status: "failed", method: "mailto", detail: "The mail account is no longer connected." };
    try {
      // Only the address and subject: other mailto parameters (body, cc) are the sender's, not ours to send.
      await deps
        .providerClient(syncAccountOf(account))
        .send({ to: [{ name: "", address }], cc: [], bcc: [], subject, body: "unsubscribe" });
      return { status: "done", method: "mailto", detail: `Unsubscribe request sent to ${address}` };
    } catch (err) {
      return {
        status: "failed",
        method: "mailto",
        detail: `Could not send the unsubscribe email: ${(err as Error).message}`,
      };
    }
  }

  return {
    async request(userId: string, emailId: string, fromAddress?: string): Promise<UnsubscribeStatus> {
      const [email] = await db
        .select({
          id: emails.id,
          accountId: emails.accountId,
          fromAddress: emails.fromAddress,
          listUnsubscribe: emails.listUnsubscribe,
          listUnsubscribePost: emails.listUnsubscribePost,
        })
        .from(emails)
        .where(and(eq(emails.userId, userId), eq(emails.id, emailId)));
      if (!email) throw new DomainError("not_found", "No such email.");
      // The stored sender wins over what the client sent: it is what the status list is keyed by.
      const senderAddress = (email.fromAddress || fromAddress || "").trim().toLowerCase();
      const options = unsubscribeOptions(email.listUnsubscribe, email.listUnsubscribePost, deps.allowHosts);
      const decided = options.oneClickUrl
        ? { method: "one_click", status: "processing", url: null, detail: null }
        : options.mailto
          ? { method: "mailto", status: "processing", url: null, detail: null }
          : options.webUrl
            ? {
                method: "link",
                status: "manual",
                url: options.webUrl,
                detail: "Open the sender's page to unsubscribe.",
              }
            : {
                method: "none",
                status: "failed",
                url: null,
                detail: "This email offers no way to unsubscribe.",
              };
      const now = clock.now();
      const values = { ...decided, accountId: email.accountId, emailId: email.id, updatedAt: now };
      const [row] = await db
        .insert(unsubscribeRequests)
        .values({ userId, senderAddress, createdAt: now, ...values })
        .onConflictDoUpdate({
          target: [unsubscribeRequests.userId, unsubscribeRequests.senderAddress],
          set: values,
        })
        .returning();
      if (!row) throw new Error("unsubscribe upsert returned no row");
      if (row.status === "processing") await deps.schedule(row.id);
      else deps.events.emit("email.unsubscribed", { userId, senderAddress, status: row.status });
      return presentUnsubscribeStatus(row);
    },

    /** The background part; idempotent (a request no longer processing is left alone). */
    async execute(requestId: string): Promise<void> {
      const [row] = await db.select().from(unsubscribeRequests).where(eq(unsubscribeRequests.id, requestId));
      if (row?.status !== "processing") return;
      const [email] = row.emailId
        ? await db
            .select({
              accountId: emails.accountId,
              listUnsubscribe: emails.listUnsubscribe,
              listUnsubscribePost: emails.listUnsubscribePost,
            })
            .from(emails)
            .where(eq(emails.id, row.emailId))
        : [];
      let outcome: Outcome;
      if (!email) {
        outcome = {
          status: "failed",
          method: row.method === "mailto" ? "mailto" : "one_click",
          detail: "The email is gone.",
        };
      } else {
        const options = unsubscribeOptions(email.listUnsubscribe, email.listUnsubscribePost, deps.allowHosts);
        outcome = {
          status: "failed",
          method: "one_click",
          detail: "This email offers no way to unsubscribe.",
        };
        if (options.oneClickUrl) {
          const result = await postOneClick(options.oneClickUrl, { allowHosts: deps.allowHosts });
          outcome = result.ok
            ? { status: "done", method: "one_click", detail: `The sender confirmed (HTTP ${result.status}).` }
            : { status: "failed", method: "one_click", detail: result.detail };
        }
        // A refused one-click still leaves the mailto route, which RFC 2369 senders must honour.
        if (outcome.status === "failed" && options.mailto) {
          const mailto = await sendMailto(email.accountId, options.mailto.address, options.mailto.subject);
          if (mailto.status === "done" || !options.oneClickUrl) outcome = mailto;
        }
      }
      await db
        .update(unsubscribeRequests)
        .set({ ...outcome, updatedAt: clock.now() })
        .where(and(eq(unsubscribeRequests.id, requestId), eq(unsubscribeRequests.status, "processing")));
      deps.events.emit("email.unsubscribed", {
        userId: row.userId,
        senderAddress: row.senderAddress,
        status: outcome.status,
      });
    },

    async list(userId: string): Promise<UnsubscribeStatus[]> {
      const rows = await db
        .select()
        .from(unsubscribeRequests)
        .where(eq(unsubscribeRequests.userId, userId))
        .orderBy(desc(unsubscribeRequests.updatedAt));
      return rows.map(presentUnsubscribeStatus);
    },
  };
}

export type Unsubscriber = ReturnType<typeof createUnsubscriber>;
