import { GMAIL_ATTACHMENTS_TOTAL_MAX, OUTLOOK_ATTACHMENT_MAX } from "./compose.ts";

/**
 * The attachment limits of issue 36 as sentences naming the file and the limit, shared by the
 * compose dialog (checked before an upload starts) and the server (checked before a send).
 */

/** Every upload, whatever the account: Outlook's per-file ceiling, the larger of the two limits. */
export const UPLOAD_FILE_MAX = OUTLOOK_ATTACHMENT_MAX;
/** Uploads one person may have waiting at once (not yet sent, not yet expired). */
export const UPLOAD_USER_QUOTA = 200 * 1024 * 1024;

const MB = 1024 * 1024;

/** "25 MB", "3.4 MB": whole megabytes when exact, one decimal otherwise. */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : Math.max(0.1, Math.round(mb * 10) / 10)} MB`;
}

export interface SizedFile {
  fileName: string;
  size: number;
}

/** Why these files cannot go out through this provider, or null when they can. */
export function attachmentLimitMessage(
  provider: "gmail" | "outlook",
  files: readonly SizedFile[],
): string | null {
  if (provider === "outlook") {
    const big = files.find((f) => f.size > OUTLOOK_ATTACHMENT_MAX);
    return big
      ? `"${big.fileName}" (${formatMegabytes(big.size)}) is too large: Outlook allows ${formatMegabytes(OUTLOOK_ATTACHMENT_MAX)} per file.`
      : null;
  }
  let total = 0;
  for (const file of files) {
    total += file.size;
    if (total > GMAIL_ATTACHMENTS_TOTAL_MAX) {
      return `"${file.fileName}" (${formatMegabytes(file.size)}) is too large: Gmail allows ${formatMegabytes(GMAIL_ATTACHMENTS_TOTAL_MAX)} of attachments in all.`;
    }
  }
  return null;
}

/** The message for a file over the upload limit (any account). */
export function uploadTooLargeMessage(file: SizedFile): string {
  return `"${file.fileName}" (${formatMegabytes(file.size)}) is too large: files can be at most ${formatMegabytes(UPLOAD_FILE_MAX)}.`;
}

/** The message when a file would take the person over their waiting-uploads quota. */
export function uploadQuotaMessage(fileName: string): string {
  return `"${fileName}" does not fit: attachments waiting to be sent can take at most ${formatMegabytes(UPLOAD_USER_QUOTA)} in all. Send or remove some first.`;
}
