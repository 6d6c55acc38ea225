import { createReadStream, createWriteStream } from "node:fs";
import { unlink } from "node:fs/promises";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  attachmentLimitMessage,
  UPLOAD_FILE_MAX,
  uploadTooLargeMessage,
} from "../../../contract/attachment-limits.ts";
import type { ComposeAttachmentRef } from "../../../contract/compose.ts";
import { DomainError } from "../../http/errors.ts";
import type { OutgoingAttachment } from "../../providers/mail-provider.ts";
import { safeContentType, safeFileName } from "./file-names.ts";
import type { UploadStore } from "./upload-store.ts";

/** The attachment reader's open(): an attachment of the person's email, as a stream. */
export type OpenOriginal = (
  userId: string,
  emailId: string,
  attachmentId: string,
) => Promise<{ body: NodeJS.ReadableStream; size: number | null; filename: string; mimeType: string }>;

/** A file of a draft at the provider (drafts/service.ts openFile), as a stream. */
export type OpenDraftFile = (
  userId: string,
  draftId: string,
  attachmentId: string,
) => ReturnType<OpenOriginal>;

/** Files resolved for one send; `sent()` after the provider took it, `release()` always. */
export interface ResolvedFiles {
  attachments: OutgoingAttachment[];
  /** The send went out: its uploads are deleted. */
  sent(): Promise<void>;
  /** Scratch copies of forwarded originals are deleted (uploads stay for a retry when not sent). */
  release(): Promise<void>;
}

/**
 * Turns a send's attachment refs into files (issue 36): uploads from the person's upload folder;
 * a forwarded email's originals copied from the provider to a scratch file first, because a
 * Graph upload session needs the exact size up front and the provider's stated size is not it.
 * Refuses, before anything is sent, files over the account provider's limit, naming the file.
 */
export function createOutgoingFiles(deps: {
  uploads: UploadStore;
  openOriginal: OpenOriginal;
  /** A forward's original as stored: the person's, with its name and size (throws 404 otherwise). */
  describeOriginal: (
    userId: string,
    emailId: string,
    attachmentId: string,
  ) => Promise<{ filename: string; size: number }>;
  /** A file already on the draft being saved or sent (`{kind: "draft"}` refs). */
  openDraftFile?: OpenDraftFile;
}) {
  /** A forward's original, or a file of the draft, opened where it lives. */
  function open(userId: string, ref: Exclude<ComposeAttachmentRef, { kind: "upload" }>, draftId?: string) {
    if (ref.kind === "original") return deps.openOriginal(userId, ref.emailId, ref.attachmentId);
    if (!draftId || !deps.openDraftFile)
      throw new DomainError("validation_failed", "A file of a draft can only be sent with its draft.");
    return deps.openDraftFile(userId, draftId, ref.attachmentId);
  }

  async function copyOriginal(
    userId: string,
    ref: Exclude<ComposeAttachmentRef, { kind: "upload" }>,
    scratch: string[],
    draftId?: string,
  ): Promise<OutgoingAttachment> {
    const opened = await open(userId, ref, draftId);
    const fileName = safeFileName(opened.filename);
    if (opened.size !== null && opened.size > UPLOAD_FILE_MAX) {
      (opened.body as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw new DomainError("payload_too_large", uploadTooLargeMessage({ fileName, size: opened.size }));
    }
    const file = await deps.uploads.scratch(userId);
    scratch.push(file);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > UPLOAD_FILE_MAX)
          callback(new DomainError("payload_too_large", uploadTooLargeMessage({ fileName, size })));
        else callback(null, chunk);
      },
    });
    try {
      await pipeline(opened.body, counter, createWriteStream(file, { mode: 0o600 }));
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new DomainError(
        "provider_unavailable",
        `"${fileName}" could not be read from the ${ref.kind === "draft" ? "draft" : "original email"}. Try again, or remove it.`,
      );
    }
    return {
      fileName,
      contentType: safeContentType(opened.mimeType),
      size,
      open: async () => createReadStream(file),
    };
  }

  return {
    /**
     * What can be known before the mail is held: every upload is the person's and still there, and
     * the uploads alone fit the provider's limit (a forward's originals and a draft's files are
     * measured when sent).
     */
    async check(userId: string, provider: "gmail" | "outlook", refs: readonly ComposeAttachmentRef[]) {
      const uploadIds = refs.flatMap((r) => (r.kind === "upload" ? [r.uploadId] : []));
      const uploaded = await deps.uploads.attachments(userId, uploadIds);
      const originals = await Promise.all(
        refs.flatMap((r) =>
          r.kind === "original"
            ? [
                deps
                  .describeOriginal(userId, r.emailId, r.attachmentId)
                  .then((o) => ({ fileName: o.filename, size: o.size })),
              ]
            : [],
        ),
      );
      const early = attachmentLimitMessage(provider, [...uploaded, ...originals]);
      if (early) throw new DomainError("payload_too_large", early);
    },

    async resolve(
      userId: string,
      provider: "gmail" | "outlook",
      refs: readonly ComposeAttachmentRef[],
      /** The draft `{kind: "draft"}` refs name files of. */
      draftId?: string,
    ): Promise<ResolvedFiles> {
      const uploadIds = refs.flatMap((r) => (r.kind === "upload" ? [r.uploadId] : []));
      const uploaded = await deps.uploads.attachments(userId, uploadIds);
      // Uploads are known in size: refuse before a byte of an original is fetched.
      const early = attachmentLimitMessage(provider, uploaded);
      if (early) throw new DomainError("payload_too_large", early);
      const scratch: string[] = [];
      const release = async () => {
        await Promise.all(scratch.map((file) => unlink(file).catch(() => undefined)));
      };
      try {
        const attachments: OutgoingAttachment[] = [];
        let next = 0;
        for (const ref of refs) {
          if (ref.kind === "upload") {
            const file = uploaded[next];
            next += 1;
            if (file) attachments.push(file);
          } else attachments.push(await copyOriginal(userId, ref, scratch, draftId));
        }
        const limit = attachmentLimitMessage(provider, attachments);
        if (limit) throw new DomainError("payload_too_large", limit);
        return { attachments, sent: () => deps.uploads.consume(userId, uploadIds), release };
      } catch (err) {
        await release();
        throw err;
      }
    },
  };
}

export type OutgoingFiles = ReturnType<typeof createOutgoingFiles>;
