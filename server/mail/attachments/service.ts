import { pipeline, Readable, Transform } from "node:stream";
import { and, eq } from "drizzle-orm";
import PostalMime, { type Address as MimeAddress, type Attachment as MimeAttachment } from "postal-mime";
import type { AttachedMessage } from "../../../contract/attachments.ts";
import { ProviderError } from "../../auth/errors.ts";
import { emails, mailAccounts, type StoredAttachment } from "../../db/schema.ts";
import { DomainError } from "../../http/errors.ts";
import { bareContentId } from "../../providers/attachment-id.ts";
import { withProviderDeadline } from "../../providers/http/deadline.ts";
import { ProviderRequestError } from "../../providers/http/errors.ts";
import { accountSummaryColumns, syncAccountOf } from "../accounts.ts";
import type { MailDeps } from "../deps.ts";
import { formatSender } from "../presenters.ts";
import { providerFailure } from "../provider-failure.ts";
import type { AttachmentLinks } from "./links.ts";
import { presentAttachment, storedIdOf } from "./present.ts";

/** The most of an attached message read into memory to parse it (the file itself streams). */
export const MAX_ATTACHED_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Bounds of the parse (issue 34): nesting and header bytes a sender controls. */
const PARSE_OPTIONS = {
  forceRfc822Attachments: true,
  maxNestingDepth: 20,
  maxHeadersSize: 256 * 1024,
  attachmentEncoding: "arraybuffer",
} as const;
const MAX_NESTED_ATTACHMENTS = 100;
const MAX_TEXT = 2_000_000;
/** A download whose bytes stop coming for this long is cut (the client sees a failed download). */
const IDLE_MS = 60_000;
const DEFAULT_OPEN_TIMEOUT_MS = 15_000;

const notFound = () =>
  new DomainError(
    "attachment_not_found",
    "This attachment is no longer available. It may have been deleted.",
  );

/** An attachment ready to send: its bytes still at the provider, flowing as they are read. */
export interface OpenedAttachment {
  body: Readable;
  size: number | null;
  filename: string;
  mimeType: string;
  mode: "download" | "inline";
}

function isTimeout(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    if (e.name === "TimeoutError" || /timed out|deadline passed/.test(e.message)) return true;
  }
  return false;
}

/** A provider failure as the attachment routes report it (contract/attachments.ts). */
function attachmentFailure(err: unknown, provider: "gmail" | "outlook", timedOut: boolean): DomainError {
  if (err instanceof DomainError) return err;
  if (err instanceof ProviderRequestError && err.status === 404) return notFound();
  if (timedOut || isTimeout(err))
    return new DomainError(
      "provider_timeout",
      "The mail provider did not answer in time. Try again in a moment.",
    );
  if (
    err instanceof ProviderError &&
    err.kind === "permanent" &&
    err instanceof ProviderRequestError &&
    err.status === 400
  )
    return notFound();
  return providerFailure(err, provider, "downloading the attachment");
}

function addressText(list: readonly MimeAddress[] | MimeAddress | undefined): string {
  const all = list === undefined ? [] : Array.isArray(list) ? list : [list];
  return all
    .flatMap((a) => (a.group ? a.group : [a]))
    .slice(0, 100)
    .map((a) => formatSender(a.name ?? "", a.address ?? ""))
    .join(", ");
}

const cut = (text: string | undefined) => (text === undefined ? null : text.slice(0, MAX_TEXT));

function bytesOf(part: MimeAttachment): Buffer {
  const { content } = part;
  if (typeof content === "string")
    return Buffer.from(content, part.encoding === "base64" ? "base64" : "utf8");
  return Buffer.from(content instanceof ArrayBuffer ? new Uint8Array(content) : content);
}

/**
 * Passes bytes on, failing the stream when none came for IDLE_MS (a provider that stalls
 * mid-file). A Transform in a pipeline, so no byte flows before the answer reads it.
 */
function withIdleTimeout(source: Readable): Readable {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      arm();
      callback(null, chunk);
    },
  });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => guard.destroy(new Error("attachment download stalled")), IDLE_MS);
  };
  arm();
  guard.on("close", () => clearTimeout(timer));
  pipeline(source, guard, () => clearTimeout(timer));
  return guard;
}

/**
 * Attachments served from the provider on demand (decision 0060): nothing of their bytes is
 * written to disk or to the database. Every lookup is scoped to the person and to an account
 * still linked to them.
 */
export function createAttachmentService(
  deps: Pick<MailDeps, "db" | "providerClient" | "attachmentOpenTimeoutMs"> & { links: AttachmentLinks },
) {
  const openTimeoutMs = deps.attachmentOpenTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;

  async function emailOf(userId: string, emailId: string) {
    const [row] = await deps.db
      .select({
        providerId: emails.providerId,
        attachments: emails.attachments,
        account: accountSummaryColumns,
      })
      .from(emails)
      .innerJoin(mailAccounts, eq(mailAccounts.id, emails.accountId))
      .where(and(eq(emails.id, emailId), eq(emails.userId, userId), eq(mailAccounts.userId, userId)));
    // Another person's email and a missing one answer the same.
    if (!row) throw notFound();
    return row;
  }

  /** Streams a top-level attachment from the provider; the wait for its first bytes is bounded. */
  async function openStored(row: Awaited<ReturnType<typeof emailOf>>, stored: StoredAttachment, id: string) {
    const account = syncAccountOf(row.account);
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException("attachment download timed out", "TimeoutError")),
      openTimeoutMs,
    );
    try {
      return await withProviderDeadline(controller.signal, () =>
        deps
          .providerClient(account)
          .openAttachment(row.providerId, { id, ref: stored.ref, fetchId: stored.fetchId }),
      );
    } catch (err) {
      throw attachmentFailure(err, account.provider, controller.signal.aborted);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The attachments of an attached message (its bytes read, bounded, and parsed). */
  async function parseAttached(body: Readable): Promise<Awaited<ReturnType<typeof PostalMime.parse>>> {
    // Read as it comes, with the bound checked per chunk: a huge message is refused early.
    const chunks: Buffer[] = [];
    let seen = 0;
    try {
      for await (const chunk of body) {
        seen += (chunk as Buffer).length;
        if (seen > MAX_ATTACHED_MESSAGE_BYTES) {
          body.destroy();
          throw new DomainError(
            "payload_too_large",
            "This attached message is too large to open here. Download it instead.",
          );
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new DomainError(
        "provider_unavailable",
        "The attached message could not be read from the provider.",
      );
    }
    const bytes = Buffer.concat(chunks);
    try {
      return await PostalMime.parse(bytes, PARSE_OPTIONS);
    } catch {
      throw new DomainError("bad_request", "This attached message could not be read.");
    }
  }

  /**
   * Finds an attachment by our id: `<id>` at the provider, or `<id>~<n>~<m>` inside attached
   * messages (each level parsed from the one above it).
   */
  async function open(userId: string, emailId: string, attachmentId: string) {
    const [topId, ...path] = attachmentId.split("~");
    const row = await emailOf(userId, emailId);
    const index = row.attachments.findIndex((a, i) => storedIdOf(a, i) === topId);
    const stored = row.attachments[index];
    if (!stored || topId === undefined) throw notFound();
    const first = await openStored(row, stored, topId);
    let current = {
      body: first.body,
      size: first.size,
      filename: stored.filename,
      mimeType: stored.mimeType,
    };
    for (const step of path) {
      if (current.mimeType !== "message/rfc822") {
        current.body.destroy();
        throw notFound();
      }
      const parsed = await parseAttached(current.body);
      const part = parsed.attachments[Number(step)];
      if (!part) throw notFound();
      const bytes = bytesOf(part);
      current = {
        body: Readable.from([bytes]),
        size: bytes.length,
        filename:
          part.filename ?? (part.mimeType === "message/rfc822" ? "Attached message.eml" : "attachment"),
        mimeType: part.mimeType,
      };
    }
    return current;
  }

  /** An attachment of the person's email as stored (no provider call); another person's is 404. */
  async function describe(userId: string, emailId: string, attachmentId: string) {
    const [topId] = attachmentId.split("~");
    const row = await emailOf(userId, emailId);
    const stored = row.attachments.find((a, i) => storedIdOf(a, i) === topId);
    if (!stored) throw notFound();
    return { filename: stored.filename, size: stored.size };
  }

  return {
    /** An attachment of the person's email, streamed from the provider (Forward's originals, issue 36). */
    open,
    describe,

    /** GET /api/attachments/:token: the bytes a signed link names, streamed from the provider. */
    async download(token: string, verify: AttachmentLinks["verify"]): Promise<OpenedAttachment> {
      const claims = verify(token);
      const opened = await open(claims.userId, claims.emailId, claims.attachmentId);
      return { ...opened, body: withIdleTimeout(opened.body), mode: claims.mode };
    },

    /** GET /api/emails/:id/attachments/:attachmentId/message: an attached message/rfc822, parsed. */
    async attachedMessage(userId: string, emailId: string, attachmentId: string): Promise<AttachedMessage> {
      const opened = await open(userId, emailId, attachmentId);
      if (opened.mimeType !== "message/rfc822") {
        opened.body.destroy();
        throw new DomainError("attachment_not_found", "This attachment is not an email message.");
      }
      const parsed = await parseAttached(opened.body);
      const owner = { userId, emailId };
      const date =
        parsed.date && !Number.isNaN(Date.parse(parsed.date)) ? new Date(parsed.date).toISOString() : null;
      return {
        from: addressText(parsed.from),
        to: addressText(parsed.to),
        cc: addressText(parsed.cc),
        subject: (parsed.subject ?? "").slice(0, 1000),
        date,
        bodyHtml: cut(parsed.html),
        bodyText: cut(parsed.text),
        attachments: parsed.attachments.slice(0, MAX_NESTED_ATTACHMENTS).map((part, index) =>
          presentAttachment(
            {
              id: `${attachmentId}~${index}`,
              filename: (part.filename ?? "").slice(0, 1000),
              mimeType: part.mimeType,
              size: bytesOf(part).length,
              inline:
                part.disposition !== "attachment" && part.contentId !== undefined && part.related === true,
              contentId: bareContentId(part.contentId),
            },
            owner,
            deps.links,
          ),
        ),
      };
    },
  };
}

export type AttachmentService = ReturnType<typeof createAttachmentService>;
