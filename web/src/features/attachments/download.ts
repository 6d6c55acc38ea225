import { saveFileName } from "./format.ts";

/** A failed attachment request: the server's error code when it sent one. */
export class AttachmentError extends Error {
  override name = "AttachmentError";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type ProviderName = "gmail" | "outlook";

/** Where attachments come from: the email (the route an attached message opens by) and its provider. */
export interface AttachmentSource {
  emailId: string;
  provider: ProviderName;
}

const PROVIDER_LABEL: Record<ProviderName, string> = { gmail: "Gmail", outlook: "Outlook" };

/**
 * The words a person reads for a failed download or preview, by the server's error code
 * (contract/attachments.ts); the message itself, never a JSON page.
 */
export function attachmentErrorText(code: string, provider: ProviderName): string {
  const name = PROVIDER_LABEL[provider];
  switch (code) {
    case "attachment_not_found":
      return `This attachment is no longer available: it may have been deleted in ${name}.`;
    case "provider_timeout":
      return `${name} did not answer in time. Try again in a moment.`;
    case "provider_reauth_required":
      return `Mailwise can no longer reach this ${name} account. Reconnect it under Accounts, then try again.`;
    case "invalid_link":
      return "This link had expired. It has been renewed: try again.";
    case "network":
      return "The attachment could not be fetched: check your connection and try again.";
    case "too_large":
      return "This file is too large to preview here. Download it instead.";
    case "preview_failed":
      return "This file could not be shown here. Download it to open it on your device.";
    default:
      return `The attachment could not be fetched (${name} or Mailwise answered with an error). Try again later.`;
  }
}

/** The error a non-2xx answer stands for (its JSON {error:{code}}, else the status). */
export async function errorOf(res: Response): Promise<AttachmentError> {
  let code = res.status === 404 ? "attachment_not_found" : `http_${res.status}`;
  let message = res.statusText;
  try {
    const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } } | null;
    if (typeof body?.error?.code === "string") code = body.error.code;
    if (typeof body?.error?.message === "string") message = body.error.message;
  } catch {
    // not JSON: the status decides
  }
  return new AttachmentError(code, message);
}

/**
 * GET on an attachment's signed URL (it carries its own capability: no session header). A failure
 * is an AttachmentError, so the caller can say what went wrong instead of showing a JSON page.
 */
export async function fetchAttachment(url: string, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: "omit", cache: "no-store", signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new AttachmentError("network", String(err));
  }
  if (!res.ok) throw await errorOf(res);
  return res;
}

/**
 * Downloads an attachment: the bytes are fetched first, so a failure becomes a message in the
 * reader, then saved under a file name that is safe on disk.
 */
export async function downloadAttachment(url: string, filename: string, signal?: AbortSignal): Promise<void> {
  const res = await fetchAttachment(url, signal);
  let blob: Blob;
  try {
    blob = await res.blob();
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new AttachmentError("network", String(err));
  }
  const href = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = href;
  link.download = saveFileName(filename);
  link.rel = "noopener";
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the blob over once the download started; keep it a while for slow ones.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
