import { useCallback, useEffect, useRef, useState } from "react";
import {
  attachmentLimitMessage,
  UPLOAD_FILE_MAX,
  uploadTooLargeMessage,
} from "../../../../../contract/attachment-limits.ts";
import type { ComposeAttachmentRef } from "../../../../../contract/compose.ts";
import type { DraftAttachment } from "../../../../../contract/drafts.ts";
import { apiRequest } from "../../../lib/api.ts";
import { type RefSwap, swapRefs } from "./draft-refs.ts";
import { uploadFile } from "./upload-file.ts";

/** One file in the compose dialog: being uploaded, uploaded, refused, or a forwarded original. */
export interface ComposeFile {
  key: string;
  fileName: string;
  size: number;
  status: "uploading" | "ready" | "failed";
  /** 0..1 while uploading. */
  progress: number;
  error?: string;
  ref?: ComposeAttachmentRef;
}

/** A forwarded email's attachment as the reply/forward state gives it. */
export interface OriginalFile {
  emailId: string;
  attachmentId: string;
  fileName: string;
  size: number;
}

let counter = 0;
const nextKey = () => {
  counter += 1;
  return `file-${counter}`;
};

/**
 * The compose dialog's files (issue 36): each picked, dropped or pasted file is checked against
 * the limits (the message names the file and the limit, before any byte is sent), uploaded with
 * progress, and held as a ref for the Send request; removing one cancels or deletes its upload.
 */
export function useComposeAttachments(options: {
  provider?: "gmail" | "outlook" | undefined;
  originals?: readonly OriginalFile[];
  /** The files of a reopened draft, at the provider. */
  drafted?: readonly DraftAttachment[];
}) {
  const [files, setFiles] = useState<ComposeFile[]>(() => [
    ...(options.drafted ?? []).map((d) =>
      readyFile(d.fileName, d.size, { kind: "draft", attachmentId: d.attachmentId }),
    ),
    ...(options.originals ?? []).map((o) =>
      readyFile(o.fileName, o.size, { kind: "original", emailId: o.emailId, attachmentId: o.attachmentId }),
    ),
  ]);
  const aborts = useRef(new Map<string, () => void>());
  const filesRef = useRef(files);
  filesRef.current = files;

  const update = useCallback((key: string, change: Partial<ComposeFile>) => {
    setFiles((all) => all.map((f) => (f.key === key ? { ...f, ...change } : f)));
  }, []);

  const add = useCallback(
    (picked: readonly File[]) => {
      const accepted = filesRef.current.filter((f) => f.status !== "failed");
      const added: ComposeFile[] = [];
      for (const file of picked) {
        const fileName = file.name || "pasted-image.png";
        const key = nextKey();
        const sized = { fileName, size: file.size };
        const limit =
          file.size > UPLOAD_FILE_MAX
            ? uploadTooLargeMessage(sized)
            : options.provider
              ? attachmentLimitMessage(options.provider, [...accepted, ...added, sized])
              : null;
        if (limit) {
          added.push({ key, fileName, size: file.size, status: "failed", progress: 0, error: limit });
          continue;
        }
        added.push({ key, fileName, size: file.size, status: "uploading", progress: 0 });
        const named = file.name ? file : new File([file], fileName, { type: file.type });
        const upload = uploadFile(named, (progress) => update(key, { progress }));
        aborts.current.set(key, upload.abort);
        upload.done
          .then((answer) =>
            update(key, { status: "ready", progress: 1, ref: { kind: "upload", uploadId: answer.id } }),
          )
          .catch((err: unknown) => {
            if (err instanceof DOMException && err.name === "AbortError") return;
            update(key, {
              status: "failed",
              error:
                err instanceof Error && err.message ? err.message : `"${fileName}" could not be uploaded.`,
            });
          })
          .finally(() => aborts.current.delete(key));
      }
      setFiles((all) => [...all, ...added]);
    },
    [options.provider, update],
  );

  const remove = useCallback((key: string) => {
    const file = filesRef.current.find((f) => f.key === key);
    aborts.current.get(key)?.();
    setFiles((all) => all.filter((f) => f.key !== key));
    // An uploaded file no mail will use is deleted now rather than in 24 hours.
    if (file?.ref?.kind === "upload")
      void apiRequest("DELETE", `/api/uploads/${file.ref.uploadId}`).catch(() => undefined);
  }, []);

  // Closing the dialog cancels uploads still under way.
  useEffect(() => {
    const pending = aborts.current;
    return () => {
      for (const abort of pending.values()) abort();
    };
  }, []);

  /**
   * A draft save put these files on the draft: their refs become the draft's files. Applied to
   * the ref at once, so a save or send that starts before the next render names them right.
   */
  const replaceRefs = useCallback((swaps: readonly RefSwap[]) => {
    filesRef.current = swapRefs(filesRef.current, swaps);
    setFiles((all) => swapRefs(all, swaps));
  }, []);
  /** The refs as they are now (not as of the last render). */
  const currentRefs = useCallback(() => readyRefs(filesRef.current), []);

  const refs = readyRefs(files);
  const uploading = files.some((f) => f.status === "uploading");
  const failed = files.some((f) => f.status === "failed");
  return { files, add, remove, refs, uploading, failed, replaceRefs, currentRefs };
}

/** A file that is already somewhere the send can take it from (a draft, a forwarded email). */
function readyFile(fileName: string, size: number, ref: ComposeAttachmentRef): ComposeFile {
  return { key: nextKey(), fileName, size, status: "ready", progress: 1, ref };
}

function readyRefs(files: readonly ComposeFile[]): ComposeAttachmentRef[] {
  return files.flatMap((f) => (f.status === "ready" && f.ref ? [f.ref] : []));
}

export type ComposeAttachmentsState = ReturnType<typeof useComposeAttachments>;
