import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rm, rmdir, stat, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, eq, exists, inArray, lt, not, sql } from "drizzle-orm";
import {
  UPLOAD_FILE_MAX,
  UPLOAD_USER_QUOTA,
  uploadQuotaMessage,
  uploadTooLargeMessage,
} from "../../../contract/attachment-limits.ts";
import type { Upload } from "../../../contract/compose.ts";
import type { Db } from "../../db/client.ts";
import { uploads } from "../../db/schema.ts";
import { DomainError } from "../../http/errors.ts";
import type { Clock } from "../../lib/clock.ts";
import type { OutgoingAttachment } from "../../providers/mail-provider.ts";
import { safeContentType, safeFileName } from "./file-names.ts";

/** An upload not sent within this long is deleted by the sweep. */
export const UPLOAD_TTL_MS = 24 * 60 * 60_000;
/** A file on disk without a row younger than this may be an upload still arriving: the sweep leaves it. */
const ORPHAN_GRACE_MS = 60 * 60_000;

type UploadRow = typeof uploads.$inferSelect;

/**
 * A mail still to be sent (Undo send's hold, a scheduled mail, one kept after failing) that
 * attaches the upload: its files live until it is sent or cancelled (issue 37), however long that
 * is. 'send' is the held mail's due action kind (server/mail/outbox/outbox-service.ts).
 */
// Written out with table names: drizzle leaves columns unqualified in a DELETE, which inside this
// subquery would read due_actions' own user_id.
const heldMailUsing = sql.raw(`(select 1 from "due_actions" d where d."user_id" = "uploads"."user_id"
  and d."kind" = 'send' and d."status" in ('pending', 'running', 'failed')
  and d."payload" -> 'request' -> 'attachments'
    @> jsonb_build_array(jsonb_build_object('kind', 'upload', 'uploadId', "uploads"."id"::text)))`);

/** The upload folder of a configured server: under DATA_DIR, beside the embedded database. */
export function uploadsDirOf(config: { dataDir: string }): string {
  return path.join(config.dataDir, "uploads");
}

/** Account deletion: the person's upload folder, whatever is in it. */
export async function removeUserUploads(dir: string, userId: string): Promise<void> {
  await rm(path.join(dir, userId), { recursive: true, force: true });
}

/** Tools and tests that build mail services without a config. */
export function defaultUploadsDir(): string {
  return path.join(os.tmpdir(), "mailwise-uploads");
}

/** What the route hands over: the part's stream and what the browser said about it. */
export interface IncomingFile {
  file: Readable & { truncated?: boolean };
  fileName: string;
  contentType: string;
}

export class FileTooLarge extends Error {
  override name = "FileTooLarge";
}

const notFound = () => new DomainError("not_found", "No such upload.");

const present = (row: UploadRow): Upload => ({
  id: row.id,
  fileName: row.fileName,
  contentType: row.contentType,
  size: row.size,
  expiresAt: row.expiresAt.toISOString(),
});

/**
 * Files attached in compose (issue 36), kept on disk under `<dir>/<user id>/<random hex>` until
 * the send that uses them or their expiry. The person's file name lives only in the row. Every
 * lookup is scoped to the person: another person's id answers as a missing one.
 */
export function createUploadStore(deps: { db: Db; clock: Clock; dir: string }) {
  const { db, clock, dir } = deps;

  const absolute = (relative: string) => path.join(dir, relative);

  async function used(userId: string): Promise<number> {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${uploads.size}), 0)` })
      .from(uploads)
      .where(eq(uploads.userId, userId));
    return Number(row?.total ?? 0);
  }

  async function remove(rows: readonly Pick<UploadRow, "path">[]): Promise<void> {
    await Promise.all(rows.map((row) => unlink(absolute(row.path)).catch(() => undefined)));
  }

  return {
    /** How many bytes the person may still upload: the smaller of the file limit and their quota left. */
    async room(userId: string): Promise<{ fileMax: number; quotaLeft: number }> {
      return { fileMax: UPLOAD_FILE_MAX, quotaLeft: Math.max(0, UPLOAD_USER_QUOTA - (await used(userId))) };
    },

    /**
     * Writes the part to a new file, then records it. A part cut off or over `limit` leaves no
     * file and no row: the write happens first, the row only after the last byte arrived.
     */
    async receive(userId: string, incoming: IncomingFile, limit: { fileMax: number; quotaLeft: number }) {
      const fileName = safeFileName(incoming.fileName);
      const relative = path.join(userId, randomBytes(16).toString("hex"));
      await mkdir(path.join(dir, userId), { recursive: true, mode: 0o700 });
      let size = 0;
      const cap = Math.min(limit.fileMax, limit.quotaLeft);
      try {
        const counter = async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            size += chunk.length;
            if (size > cap) throw new FileTooLarge();
            yield chunk;
          }
        };
        await pipeline(incoming.file, counter, createWriteStream(absolute(relative), { mode: 0o600 }));
        if (incoming.file.truncated) throw new FileTooLarge();
      } catch (err) {
        await unlink(absolute(relative)).catch(() => undefined);
        if (err instanceof FileTooLarge || isSizeLimitError(err)) {
          if (size > limit.fileMax || cap === limit.fileMax)
            throw new DomainError("payload_too_large", uploadTooLargeMessage({ fileName, size }));
          throw new DomainError("payload_too_large", uploadQuotaMessage(fileName));
        }
        throw new DomainError("bad_request", "The upload was cut off before the file arrived. Try again.");
      }
      const [row] = await db
        .insert(uploads)
        .values({
          userId,
          fileName,
          contentType: safeContentType(incoming.contentType),
          size,
          path: relative,
          expiresAt: new Date(clock.nowMs() + UPLOAD_TTL_MS),
        })
        .returning();
      if (!row) throw new Error("upload row not written");
      // Two uploads at once could both have fit the quota alone: the later one gives way.
      if ((await used(userId)) > UPLOAD_USER_QUOTA) {
        await db.delete(uploads).where(eq(uploads.id, row.id));
        await remove([row]);
        throw new DomainError("payload_too_large", uploadQuotaMessage(fileName));
      }
      return present(row);
    },

    async get(userId: string, id: string): Promise<Upload> {
      const [row] = await db
        .select()
        .from(uploads)
        .where(and(eq(uploads.userId, userId), eq(uploads.id, id)));
      if (!row) throw notFound();
      return present(row);
    },

    /** DELETE /api/uploads/:id: the row and its file. */
    async delete(userId: string, id: string): Promise<void> {
      const gone = await db
        .delete(uploads)
        .where(and(eq(uploads.userId, userId), eq(uploads.id, id)))
        .returning({ path: uploads.path });
      if (gone.length === 0) throw notFound();
      await remove(gone);
    },

    /** The uploads a send names, as files to attach (in the order asked); a missing one is a 404. */
    async attachments(userId: string, ids: readonly string[]): Promise<OutgoingAttachment[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select()
        .from(uploads)
        .where(and(eq(uploads.userId, userId), inArray(uploads.id, [...ids])));
      return ids.map((id) => {
        const row = rows.find((r) => r.id === id);
        if (!row)
          throw new DomainError(
            "not_found",
            "An attached file is no longer available (it was removed or expired). Attach it again.",
          );
        return {
          fileName: row.fileName,
          contentType: row.contentType,
          size: row.size,
          open: async () => createReadStream(absolute(row.path)),
        };
      });
    },

    /** After the send that used them: rows and files go. */
    async consume(userId: string, ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      const gone = await db
        .delete(uploads)
        .where(and(eq(uploads.userId, userId), inArray(uploads.id, [...ids])))
        .returning({ path: uploads.path });
      await remove(gone);
    },

    /** A scratch file in the person's folder (a forwarded original on its way out); no row. */
    async scratch(userId: string): Promise<string> {
      await mkdir(path.join(dir, userId), { recursive: true, mode: 0o700 });
      return absolute(path.join(userId, `tmp-${randomBytes(16).toString("hex")}`));
    },

    /**
     * The worker's sweep: expired uploads, then files no row knows (a person deleted, a process
     * killed mid-upload) once they are old enough not to be an upload still arriving.
     */
    async sweep(): Promise<{ expired: number; orphans: number }> {
      const expired = await db
        .delete(uploads)
        .where(and(lt(uploads.expiresAt, clock.now()), not(exists(heldMailUsing))))
        .returning({ path: uploads.path });
      await remove(expired);
      let orphans = 0;
      const folders = await readdir(dir).catch(() => [] as string[]);
      for (const folder of folders) {
        const names = await readdir(path.join(dir, folder)).catch(() => [] as string[]);
        const known = new Set(
          names.length === 0
            ? []
            : (
                await db
                  .select({ path: uploads.path })
                  .from(uploads)
                  .where(
                    inArray(
                      uploads.path,
                      names.map((n) => path.join(folder, n)),
                    ),
                  )
              ).map((r) => r.path),
        );
        for (const name of names) {
          const relative = path.join(folder, name);
          if (known.has(relative)) continue;
          const info = await stat(absolute(relative)).catch(() => undefined);
          if (info && clock.nowMs() - info.mtimeMs > ORPHAN_GRACE_MS) {
            await unlink(absolute(relative)).catch(() => undefined);
            orphans += 1;
          }
        }
        if (names.length === 0) await rmdir(path.join(dir, folder)).catch(() => undefined);
      }
      return { expired: expired.length, orphans };
    },
  };
}

function isSizeLimitError(err: unknown): boolean {
  return (
    err instanceof Error && "code" in err && (err as { code?: unknown }).code === "FST_REQ_FILE_TOO_LARGE"
  );
}

export type UploadStore = ReturnType<typeof createUploadStore>;
