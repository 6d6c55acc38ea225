import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { AnalyzerContext, AnalyzerInput } from "../../server/ai/local/types.ts";
import { type CorpusMessage, corpusIndex } from "./corpus.ts";
import { heldOutSample, labelSample } from "./sample.ts";

/**
 * The data of the issue-18 bench (bench/ai/trust.ts): hand-written mail sets, labelled corpus
 * sentences, requests, direct mail, list-delivered spam and real wallet-phishing domains. Every set
 * has a dev side (tuning) and a held-out side (never tuned on); `split` picks one.
 */

export type Split = "dev" | "heldout";

const LABELS = join(import.meta.dirname, "labels");
const readJson = <T>(file: string): T => JSON.parse(readFileSync(join(LABELS, file), "utf8")) as T;

interface Address {
  name: string;
  address: string;
}

export interface MailSample {
  id: string;
  kind: "hostile" | "normal";
  type: string;
  intent?: string;
  from: Address;
  replyTo?: Address[];
  subject: string;
  text: string;
  html?: string;
  attachments?: Array<{ filename: string; mimeType?: string }>;
  authenticationResults?: string;
  listUnsubscribe?: string;
  inReplyTo?: string;
}

interface MailSetFile {
  context: {
    userAddresses: string[];
    contactDomains: string[];
    colleagues: Address[];
    receivedAt: string;
  };
  mail: MailSample[];
}

export interface MailSet {
  context: AnalyzerContext;
  receivedAt: Date;
  userAddress: string;
  mail: MailSample[];
}

export function loadMailSet(split: Split): MailSet {
  const file = readJson<MailSetFile>(split === "dev" ? "mail-dev.json" : "mail-heldout.json");
  const receivedAt = new Date(file.context.receivedAt);
  return {
    // `colleagues` is read by analyzers that know the user's own people; older ones ignore it.
    context: {
      userAddresses: file.context.userAddresses,
      contactDomains: file.context.contactDomains,
      colleagues: file.context.colleagues,
      now: receivedAt,
    } as AnalyzerContext,
    receivedAt,
    userAddress: file.context.userAddresses[0] ?? "",
    mail: file.mail,
  };
}

/** A hand-written sample as the analyzer reads it, delivered to the mailbox owner. */
export function mailInput(
  sample: MailSample,
  set: Pick<MailSet, "receivedAt" | "userAddress">,
): AnalyzerInput {
  return {
    from: sample.from,
    to: [{ name: "", address: set.userAddress }],
    replyTo: sample.replyTo ?? [],
    subject: sample.subject,
    bodyText: sample.text || null,
    bodyHtml: sample.html ?? null,
    receivedAt: set.receivedAt,
    headers: {
      authenticationResults: sample.authenticationResults ?? null,
      listUnsubscribe: sample.listUnsubscribe ?? null,
      inReplyTo: sample.inReplyTo ?? null,
    },
    attachments: sample.attachments ?? [],
  };
}

export type SentimentLabel = "positive" | "negative" | "neutral";

/**
 * Hand-labelled corpus email sentences. "heldout2" is the held-out half the bench reports; the
 * first "heldout" half became tuning data once its figures had been seen (see the file's about).
 */
export function emailSentences(split: Split | "heldout2"): Array<{ text: string; label: SentimentLabel }> {
  const file = readJson<{ sentences: Array<{ text: string; label: SentimentLabel; split: string }> }>(
    "email-sentences.json",
  );
  return file.sentences.filter((s) => s.split === split);
}

/**
 * A dev side is its first file's dev array plus, where they exist, the "-dev2" to "-dev40" files
 * written from part 3 on by helper sessions that had read neither the analyzer nor any held-out data.
 */
export function withDevExtra<T>(file: string, split: Split, first: T[]): T[] {
  if (split !== "dev") return first;
  return [...first, ...devExtraSets<T>(file).flatMap((set) => set.entries)];
}

/** The "-devN" files of a dev side, each on its own (a mailbox, a trade, a helper's hand). */
export function devExtraSets<T>(file: string): Array<{ name: string; entries: T[] }> {
  return Array.from({ length: 59 }, (_, i) => file.replace(/\.json$/, `-dev${i + 2}.json`))
    .filter((name) => existsSync(join(LABELS, name)))
    .map((name) => {
      // A file for another mailbox names its owner; each of its entries carries it.
      const data = JSON.parse(readFileSync(join(LABELS, name), "utf8")) as { owner?: string; dev: T[] };
      return {
        name,
        entries: data.owner ? data.dev.map((entry) => ({ ...entry, owner: data.owner })) : data.dev,
      };
    });
}

export function requestSentences(split: Split): string[] {
  const file = readJson<Record<Split, string[]>>("email-requests.json");
  return withDevExtra("email-requests.json", split, file[split]);
}

export interface DirectMail {
  bucket: "work" | "personal";
  /** The mailbox it was sent to, when not the set's usual one. */
  owner?: string;
  from: Address;
  subject: string;
  text: string;
  inReplyTo?: string;
}

/** The dev direct mail one set (one mailbox) at a time: the first file's dev part, then each -devN file. */
export function directMailDevSets(): Array<{ name: string; entries: DirectMail[] }> {
  const first = readJson<Record<Split, DirectMail[]>>("direct-mail.json").dev;
  return [{ name: "direct-mail.json", entries: first }, ...devExtraSets<DirectMail>("direct-mail.json")];
}

export function directMail(split: Split): DirectMail[] {
  return withDevExtra(
    "direct-mail.json",
    split,
    readJson<Record<Split, DirectMail[]>>("direct-mail.json")[split],
  );
}

/**
 * Spam the corpus received through a mailing-list server (a List-Id, List-Post or Mailing-List
 * header, or a list's Sender), never in the older hand-labelled samples. The corpus's own spam
 * label is the truth: such mail is not a newsletter the owner subscribed to. Sorted by group and
 * file name, position i is held out when i % 10 === 3 and dev when i % 10 is 8 (part 1), 0 or 5
 * (added as tuning data in part 2).
 */
export function listSpam(split: Split): { dir: string; messages: CorpusMessage[] } {
  const { dir, messages } = corpusIndex();
  const labelled = new Set([...labelSample().messages, ...heldOutSample().messages].map((m) => m.path));
  const listed: CorpusMessage[] = [];
  for (const m of messages
    .filter((x) => x.group.startsWith("spam"))
    .sort((a, b) => a.path.localeCompare(b.path))) {
    if (labelled.has(m.path)) continue;
    const raw = readFileSync(join(dir, m.path), "latin1");
    const head = raw.slice(0, raw.indexOf("\n\n"));
    if (
      /^(list-id|mailing-list|x-mailing-list|list-post):/im.test(head) ||
      /^sender: .*(owner-|-admin|bounce)/im.test(head)
    )
      listed.push(m);
  }
  const want = split === "heldout" ? [3] : [8, 0, 5];
  return { dir, messages: listed.filter((_m, i) => want.includes(i % 10)) };
}

/**
 * Real wallet and exchange phishing domains (eth-phishing-detect's blacklist) and the legitimate
 * domains it lists (its whitelist and fuzzy list). Deterministic halves: position i of each
 * sorted list is held out when i is odd, dev when even.
 */
export function walletDomains(split: Split): { phishing: string[]; legitimate: string[] } {
  const require = createRequire(import.meta.url);
  const config = JSON.parse(
    readFileSync(
      join(dirname(require.resolve("eth-phishing-detect/package.json")), "src", "config.json"),
      "utf8",
    ),
  ) as { blacklist: string[]; whitelist: string[]; fuzzylist: string[] };
  const half = (list: string[]) =>
    [...new Set(list)].sort().filter((_d, i) => (i % 2 === 1) === (split === "heldout"));
  return { phishing: half(config.blacklist), legitimate: half([...config.whitelist, ...config.fuzzylist]) };
}

/** Corpus ham for the false-alarm rate, by rule: position i of each ham group when i % 50 === 21 (held out) or 46 (dev). */
export function corpusHam(split: Split): { dir: string; messages: CorpusMessage[] } {
  const { dir, messages } = corpusIndex();
  const want = split === "heldout" ? 21 : 46;
  const picked: CorpusMessage[] = [];
  for (const group of ["easy-ham-1", "easy-ham-2", "hard-ham-1"]) {
    const inGroup = messages.filter((m) => m.group === group).sort((a, b) => a.id.localeCompare(b.id));
    inGroup.forEach((m, i) => {
      if (i % 50 === want) picked.push(m);
    });
  }
  return { dir, messages: picked };
}

/** A later held-out set: its entries and the mailbox they were written for, when the file names one. */
export interface LaterSet<T> {
  owner?: string;
  heldout: T[];
}

/**
 * The later held-out sets: 3 to 23 (parts 3 and 4, three in part 5, two in part 6, three in part 7, two in part 8, three in part 9, five in part 10, one in part 11), each hand-written by a helper session that had
 * read neither the analyzer nor any other set; measured once, never tuned on, failures never
 * listed. Empty when the file is not there.
 */
export const LATER_SETS = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
] as const;
/** Each later set's ordinal, as the figures' keys and the report's rows name it. */
export const LATER_SET_NAMES = {
  3: "third",
  4: "fourth",
  5: "fifth",
  6: "sixth",
  7: "seventh",
  8: "eighth",
  9: "ninth",
  10: "tenth",
  11: "eleventh",
  12: "twelfth",
  13: "thirteenth",
  14: "fourteenth",
  15: "fifteenth",
  16: "sixteenth",
  17: "seventeenth",
  18: "eighteenth",
  19: "nineteenth",
  20: "twentieth",
  21: "twenty-first",
  22: "twenty-second",
  23: "twenty-third",
} as const;

export function laterHeldout<T>(
  set: (typeof LATER_SETS)[number],
  name: "direct-mail" | "email-requests" | "actions" | "text-quality",
): LaterSet<T> {
  const file = join(LABELS, `${name}-heldout${set}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as LaterSet<T>) : { heldout: [] };
}
