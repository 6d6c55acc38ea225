import type { Db } from "../db/client.ts";
import type { EventBus } from "../events.ts";
import type { Clock } from "../lib/clock.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import type { AttachmentLinks } from "./attachments/links.ts";
import { createAttachmentService } from "./attachments/service.ts";
import { createDraftService, type DraftService } from "./drafts/service.ts";
import { createMailSender } from "./mail-sender.ts";
import { createOutgoingFiles } from "./uploads/outgoing-files.ts";
import { createUploadStore } from "./uploads/upload-store.ts";

/**
 * The mail sender with everything a send may carry: uploads and a forward's originals
 * (attachments), and the draft it was written in. Held mail is sent by the worker role, which
 * has no mail API, so the API and the outbox both build their sender here (issue 36).
 */
export function createSenderWithFiles(deps: {
  db: Db;
  clock: Clock;
  events: EventBus;
  providerClient: ProviderClientFactory;
  links: AttachmentLinks;
  uploadsDir: string;
  attachmentOpenTimeoutMs?: number;
  writeTimeoutMs?: number;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}) {
  const attachments = createAttachmentService(deps);
  const uploads = createUploadStore({ db: deps.db, clock: deps.clock, dir: deps.uploadsDir });
  // Drafts put uploads on the provider's draft, and a send reads the draft's own files back.
  let drafts: DraftService | undefined;
  const outgoingFiles = createOutgoingFiles({
    uploads,
    openOriginal: attachments.open,
    describeOriginal: attachments.describe,
    openDraftFile: (userId, draftId, attachmentId) => {
      if (!drafts) throw new Error("drafts are not ready");
      return drafts.openFile(userId, draftId, attachmentId);
    },
  });
  drafts = createDraftService({ ...deps, outgoingFiles });
  const sender = createMailSender({ ...deps, outgoingFiles, drafts });
  return { sender, attachments, uploads, drafts };
}
