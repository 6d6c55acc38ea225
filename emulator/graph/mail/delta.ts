import type { FastifyInstance } from "fastify";
import { emulatorBaseUrl } from "../../context.ts";
import { firstString } from "../../gmail/params.ts";
import { type FolderName, folderOf } from "../../mailbox/folders.ts";
import type { Mailbox, StoredMessage } from "../../mailbox/mailbox.ts";
import type { MailServices } from "../../mailbox/services.ts";
import { graphCaller } from "./caller.ts";
import { sendKnownGraphError } from "./errors.ts";
import { resolveFolder } from "./messages.ts";
import { type PresentOptions, parseSelect, presentMessage } from "./present.ts";

/**
 * State carried by $skiptoken / $deltatoken. `since` undefined = the initial round; `upTo` is the
 * history id the round reads to, so changes made while paging wait for the next round.
 */
interface DeltaState {
  folder: FolderName;
  since: number | undefined;
  upTo: number;
  offset: number;
  select: string | undefined;
}

function encode(state: DeltaState): string {
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

function decode(token: string, folder: FolderName): DeltaState | undefined {
  try {
    const state = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Partial<DeltaState>;
    if (state.folder !== folder || typeof state.upTo !== "number" || typeof state.offset !== "number")
      return undefined;
    return {
      folder,
      since: typeof state.since === "number" ? state.since : undefined,
      upTo: state.upTo,
      offset: state.offset,
      select: typeof state.select === "string" ? state.select : undefined,
    };
  } catch {
    return undefined;
  }
}

type DeltaItem = { kind: "upsert"; message: StoredMessage } | { kind: "removed"; id: string };

/** What changed in `folder` between two history ids, newest state per message. */
function changedItems(
  mailbox: Mailbox,
  folder: FolderName,
  since: number,
  upTo: number,
): DeltaItem[] | undefined {
  const records = mailbox.changesSince(since);
  if (records === undefined) return undefined;
  const upserts = new Map<string, StoredMessage>();
  const formerIds = new Set<string>();
  for (const record of records) {
    if (record.id > upTo) break;
    if (record.graphBefore?.folder === folder) formerIds.add(record.graphBefore.id);
    const message = mailbox.get(record.messageId);
    if (message !== undefined && folderOf(message.labels) === folder) upserts.set(message.id, message);
  }
  const items: DeltaItem[] = [...upserts.values()].map((message) => ({ kind: "upsert", message }));
  const current = new Set([...upserts.values()].map((message) => message.graphId));
  // Deleted, moved out, or moved within (a new id): the old id is reported as removed.
  for (const id of formerIds) if (!current.has(id)) items.push({ kind: "removed", id });
  return items;
}

function pageSize(prefer: string | undefined, top: string | undefined): number {
  const match = /odata\.maxpagesize=(\d+)/i.exec(prefer ?? "");
  const size = Number(match?.[1] ?? top ?? 10);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1000) : 10;
}

export function registerGraphDelta(app: FastifyInstance, mail: MailServices): void {
  app.get<{ Params: { folder: string } }>(
    "/me/mailFolders/:folder/messages/delta",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const now = mail.context.clock.now();
      const folder = resolveFolder(mailbox, request.params.folder);
      if (folder === undefined) return sendKnownGraphError(reply, "folderNotFound", now);
      const query = request.query as Record<string, unknown>;
      const skipToken = firstString(query.$skiptoken);
      const deltaToken = firstString(query.$deltatoken);
      let state: DeltaState | undefined;
      if (skipToken !== undefined || deltaToken !== undefined) {
        state = decode(skipToken ?? deltaToken ?? "", folder);
        if (state === undefined) return sendKnownGraphError(reply, "syncStateGone", now);
        if (deltaToken !== undefined)
          state = { ...state, since: state.upTo, upTo: mailbox.historyId, offset: 0 };
      } else {
        const select = firstString(query.$select);
        state = { folder, since: undefined, upTo: mailbox.historyId, offset: 0, select };
      }
      const size = pageSize(String(request.headers.prefer ?? ""), firstString(query.$top));
      let page: DeltaItem[] = [];
      let more = false;
      if (state.since === undefined) {
        // Initial round: every message in the folder, newest first, paged by offset.
        const index = mailbox.folderIndex(folder);
        for (let offset = state.offset; offset < state.offset + size + 1; offset += 1) {
          const message = index.atNewestOffset(offset);
          if (message === undefined) break;
          if (page.length === size) more = true;
          else page.push({ kind: "upsert", message });
        }
      } else {
        const changed = changedItems(mailbox, folder, state.since, state.upTo);
        if (changed === undefined) return sendKnownGraphError(reply, "syncStateGone", now);
        page = changed.slice(state.offset, state.offset + size);
        more = changed.length > state.offset + size;
      }
      const options: PresentOptions = { select: parseSelect(state.select), bodyType: "html" };
      const base = `${emulatorBaseUrl(mail.context, request)}/graph.microsoft.com/v1.0/me/mailFolders/${request.params.folder}/messages/delta`;
      const out: Record<string, unknown> = {
        "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#Collection(message)",
        value: page.map((item) =>
          item.kind === "upsert"
            ? { "@odata.type": "#microsoft.graph.message", ...presentMessage(mailbox, item.message, options) }
            : { "@odata.type": "#microsoft.graph.message", id: item.id, "@removed": { reason: "deleted" } },
        ),
      };
      if (more) {
        out["@odata.nextLink"] = `${base}?$skiptoken=${encode({ ...state, offset: state.offset + size })}`;
      } else {
        out["@odata.deltaLink"] = `${base}?$deltatoken=${encode({ ...state, offset: 0 })}`;
      }
      return out;
    },
  );
}
