import type { Clock } from "../clock.ts";
import { type FolderName, folderOf, labelsForMove } from "./folders.ts";
import { gmailId, graphId } from "./ids.ts";
import { type IndexedHeaders, indexHeaders } from "./message-index.ts";
import { SortedIndex } from "./sorted-index.ts";

export type FlagStatus = "notFlagged" | "flagged" | "complete";

export interface StoredMessage {
  /** Insertion order within the mailbox; tie-breaker for equal dates. */
  readonly seq: number;
  readonly id: string;
  readonly threadId: string;
  readonly internalDate: number;
  readonly labels: Set<string>;
  readonly headers: IndexedHeaders;
  readonly sizeEstimate: number;
  /** The RFC 822 text; generated and corpus messages build it on demand to keep memory small. */
  readonly raw: () => string;
  historyId: number;
  graphId: string;
  /** Bumped on every change; Graph's changeKey. */
  version: number;
  /** How often the message changed folder, which is what changes its Graph id. */
  moves: number;
  flagComplete: boolean;
  categories: string[];
  snippet: string | undefined;
  searchText: string | undefined;
}

export type ChangeKind = "messageAdded" | "messageDeleted" | "labelAdded" | "labelRemoved" | "updated";

/** One entry of the mailbox's change log: Gmail history and Graph delta both read it. */
export interface ChangeRecord {
  readonly id: number;
  readonly at: number;
  readonly kind: ChangeKind;
  readonly messageId: string;
  readonly threadId: string;
  readonly labelIds: readonly string[];
  readonly labelsAfter: readonly string[];
  readonly graphBefore: { readonly id: string; readonly folder: FolderName } | undefined;
  readonly graphAfter: { readonly id: string; readonly folder: FolderName } | undefined;
}

export interface NewMessage {
  raw: () => string;
  internalDate: number;
  labelIds: readonly string[];
  /** Parsed from raw() when omitted. */
  headers?: IndexedHeaders;
  sizeEstimate?: number;
  snippet?: string;
  threadId?: string;
}

export type MailboxListener = (changes: readonly ChangeRecord[]) => void;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface MailboxOptions {
  /** How long change records are kept; older history ids answer 404 and delta tokens 410. */
  historyRetentionMs?: number;
}

/**
 * One person's mail, shared by the Gmail and Graph faces. Every mutation appends to the change
 * log and notifies listeners (push delivery), exactly once per mutation.
 */
export class Mailbox {
  readonly key: string;
  readonly email: string;
  readonly #clock: Clock;
  #seq = 0;
  #historyId = 1000;
  /** Lowest startHistoryId still answered; everything at or above it is in #log. */
  #floor = 1000;
  #log: ChangeRecord[] = [];
  #logHead = 0;
  #retentionMs: number;
  readonly #byId = new Map<string, StoredMessage>();
  readonly #byGraphId = new Map<string, StoredMessage>();
  readonly #threadByMessageIdHeader = new Map<string, string>();
  /** Each thread's messages (Gmail threads.get/list, Graph's conversationId filter). */
  readonly #threads = new Map<string, Set<StoredMessage>>();
  readonly #all = new SortedIndex<StoredMessage>();
  readonly #byLabel = new Map<string, SortedIndex<StoredMessage>>();
  readonly #byFolder = new Map<FolderName, SortedIndex<StoredMessage>>();
  readonly #unreadByLabel = new Map<string, number>();
  readonly #listeners = new Set<MailboxListener>();
  readonly userLabels = new Map<string, string>();
  /** Graph folders made under the root (POST /me/mailFolders): label id -> display name. */
  readonly customFolders = new Map<string, string>();

  constructor(key: string, email: string, clock: Clock, options: MailboxOptions = {}) {
    this.key = key;
    this.email = email;
    this.#clock = clock;
    this.#retentionMs = options.historyRetentionMs ?? 7 * DAY_MS;
  }

  get historyId(): number {
    return this.#historyId;
  }

  get historyFloor(): number {
    return this.#floor;
  }

  get size(): number {
    return this.#byId.size;
  }

  get threadCount(): number {
    return this.#threads.size;
  }

  /** The thread's messages, oldest first (seq breaks ties); [] for an unknown thread. */
  thread(threadId: string): StoredMessage[] {
    const members = this.#threads.get(threadId);
    if (members === undefined) return [];
    return [...members].sort((a, b) => a.internalDate - b.internalDate || a.seq - b.seq);
  }

  setRetention(ms: number): void {
    this.#retentionMs = ms;
    this.#prune();
  }

  onChange(listener: MailboxListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get(id: string): StoredMessage | undefined {
    return this.#byId.get(id);
  }

  getByGraphId(id: string): StoredMessage | undefined {
    return this.#byGraphId.get(id);
  }

  labelIndex(label: string): SortedIndex<StoredMessage> | undefined {
    return this.#byLabel.get(label);
  }

  folderIndex(folder: FolderName): SortedIndex<StoredMessage> {
    return this.#indexOf(this.#byFolder, folder);
  }

  get allIndex(): SortedIndex<StoredMessage> {
    return this.#all;
  }

  labelCounts(label: string): { total: number; unread: number } {
    return { total: this.#byLabel.get(label)?.size ?? 0, unread: this.#unreadByLabel.get(label) ?? 0 };
  }

  folderCounts(folder: FolderName): { total: number; unread: number } {
    const index = this.#byFolder.get(folder);
    let unread = 0;
    if (index !== undefined)
      for (const message of index.oldestFirst()) if (message.labels.has("UNREAD")) unread += 1;
    return { total: index?.size ?? 0, unread };
  }

  /**
   * Adds a message. Seeding passes record=false: a freshly seeded mailbox has no history, as a
   * real one that the app first sees has none it could ask for.
   */
  add(input: NewMessage, record = true): StoredMessage {
    this.#seq += 1;
    const seq = this.#seq;
    let id = gmailId(input.internalDate, seq);
    while (this.#byId.has(id)) id = gmailId(input.internalDate + 1, seq);
    const headers = input.headers ?? indexHeaders(input.raw());
    const threadId = this.#threadFor(id, input.threadId, headers);
    const labels = new Set(input.labelIds);
    const message: StoredMessage = {
      seq,
      id,
      threadId,
      internalDate: input.internalDate,
      labels,
      headers,
      sizeEstimate: input.sizeEstimate ?? Buffer.byteLength(input.raw(), "utf8"),
      raw: input.raw,
      historyId: this.#historyId,
      graphId: graphId(this.key, seq, 0),
      version: 0,
      moves: 0,
      flagComplete: false,
      categories: [],
      snippet: input.snippet,
      searchText: undefined,
    };
    this.#byId.set(id, message);
    this.#byGraphId.set(message.graphId, message);
    const members = this.#threads.get(threadId) ?? new Set<StoredMessage>();
    members.add(message);
    this.#threads.set(threadId, members);
    this.#all.insert(message);
    for (const label of labels) this.#addToLabel(message, label);
    this.#indexOf(this.#byFolder, folderOf(labels)).insert(message);
    if (record) {
      const after = { id: message.graphId, folder: folderOf(labels) };
      this.#commit([this.#record("messageAdded", message, [], undefined, after)]);
    } else {
      // Seeded mail gets a history id too, so historyId stays monotonic across the mailbox.
      this.#historyId += 1;
      this.#floor = this.#historyId;
      message.historyId = this.#historyId;
    }
    return message;
  }

  /** Gmail-style label edit; returns the message or undefined when unknown. */
  modify(id: string, add: readonly string[], remove: readonly string[]): StoredMessage | undefined {
    const message = this.#byId.get(id);
    if (message === undefined) return undefined;
    this.#commit(this.#applyLabels(message, add, remove));
    return message;
  }

  /** Many messages, one notification (Gmail batchModify). */
  modifyMany(ids: readonly string[], add: readonly string[], remove: readonly string[]): number {
    const records: ChangeRecord[] = [];
    let changed = 0;
    for (const id of ids) {
      const message = this.#byId.get(id);
      if (message === undefined) continue;
      changed += 1;
      records.push(...this.#applyLabels(message, add, remove));
    }
    this.#commit(records);
    return changed;
  }

  /** Outlook move: labels follow the folder, and the Graph id changes. */
  move(id: string, folder: FolderName): StoredMessage | undefined {
    const message = this.#byId.get(id);
    if (message === undefined) return undefined;
    const { add, remove } = labelsForMove(message.labels, folder);
    this.#commit(this.#applyLabels(message, add, remove));
    return message;
  }

  /** Changes Graph-only properties (flag completion, categories), which Gmail history ignores. */
  update(id: string, change: { flagComplete?: boolean; categories?: string[] }): StoredMessage | undefined {
    const message = this.#byId.get(id);
    if (message === undefined) return undefined;
    if (change.flagComplete !== undefined) message.flagComplete = change.flagComplete;
    if (change.categories !== undefined) message.categories = [...change.categories];
    const here = { id: message.graphId, folder: folderOf(message.labels) };
    message.version += 1;
    this.#commit([this.#record("updated", message, [], here, here)]);
    return message;
  }

  /**
   * Replaces a draft's content in place (Graph PATCH on a draft keeps its id); the id, thread,
   * labels and date stay, the cached snippet and search text are dropped.
   */
  rewrite(id: string, raw: string): StoredMessage | undefined {
    const message = this.#byId.get(id);
    if (message === undefined) return undefined;
    Object.assign(message, {
      raw: () => raw,
      headers: indexHeaders(raw),
      sizeEstimate: Buffer.byteLength(raw, "utf8"),
      snippet: undefined,
      searchText: undefined,
    });
    const here = { id: message.graphId, folder: folderOf(message.labels) };
    message.version += 1;
    this.#commit([this.#record("updated", message, [], here, here)]);
    return message;
  }

  /** Permanent delete (Gmail messages.delete, Outlook delete from Deleted Items). */
  delete(id: string): boolean {
    const message = this.#byId.get(id);
    if (message === undefined) return false;
    const before = { id: message.graphId, folder: folderOf(message.labels) };
    this.#byId.delete(id);
    this.#byGraphId.delete(message.graphId);
    this.#all.remove(message);
    for (const label of message.labels) this.#removeFromLabel(message, label);
    this.#byFolder.get(before.folder)?.remove(message);
    const members = this.#threads.get(message.threadId);
    members?.delete(message);
    if (members?.size === 0) this.#threads.delete(message.threadId);
    this.#commit([this.#record("messageDeleted", message, [], before, undefined)]);
    return true;
  }

  /** Change records with id > startId, in order; undefined when startId is no longer retained. */
  changesSince(startId: number): ChangeRecord[] | undefined {
    this.#prune();
    if (startId < this.#floor) return undefined;
    // Binary search over the retained log: history ids are strictly increasing.
    let low = this.#logHead;
    let high = this.#log.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const record = this.#log[mid];
      if (record !== undefined && record.id <= startId) low = mid + 1;
      else high = mid;
    }
    return this.#log.slice(low);
  }

  /** Forgets all history: every earlier history id and delta token becomes invalid. */
  expireHistory(): void {
    this.#historyId += 1;
    this.#floor = this.#historyId;
    this.#log = [];
    this.#logHead = 0;
  }

  #threadFor(id: string, requested: string | undefined, headers: IndexedHeaders): string {
    let threadId = requested !== undefined && this.#threads.has(requested) ? requested : undefined;
    if (threadId === undefined) {
      for (const ref of [headers.inReplyTo, ...headers.references.split(/\s+/).reverse()]) {
        const found = ref === "" ? undefined : this.#threadByMessageIdHeader.get(ref);
        if (found !== undefined) {
          threadId = found;
          break;
        }
      }
    }
    threadId ??= id;
    if (headers.messageId !== "" && !this.#threadByMessageIdHeader.has(headers.messageId)) {
      this.#threadByMessageIdHeader.set(headers.messageId, threadId);
    }
    return threadId;
  }

  #applyLabels(message: StoredMessage, add: readonly string[], remove: readonly string[]): ChangeRecord[] {
    const folderBefore = folderOf(message.labels);
    const before = { id: message.graphId, folder: folderBefore };
    const removed = remove.filter((label) => message.labels.has(label) && !add.includes(label));
    const added = add.filter((label) => !message.labels.has(label));
    if (removed.length === 0 && added.length === 0) return [];
    const wasUnread = message.labels.has("UNREAD");
    for (const label of removed) {
      this.#byLabel.get(label)?.remove(message);
      if (wasUnread) this.#bumpUnread(label, -1);
      message.labels.delete(label);
    }
    for (const label of added) message.labels.add(label);
    const isUnread = message.labels.has("UNREAD");
    for (const label of added) {
      this.#indexOf(this.#byLabel, label).insert(message);
      if (isUnread) this.#bumpUnread(label, 1);
    }
    // When UNREAD itself flips, every label the message kept gains or loses one unread.
    if (wasUnread !== isUnread) {
      for (const label of message.labels)
        if (!added.includes(label)) this.#bumpUnread(label, isUnread ? 1 : -1);
    }
    message.version += 1;
    const folderAfter = folderOf(message.labels);
    if (folderAfter !== folderBefore) {
      this.#byFolder.get(folderBefore)?.remove(message);
      this.#indexOf(this.#byFolder, folderAfter).insert(message);
      this.#byGraphId.delete(message.graphId);
      message.moves += 1;
      message.graphId = graphId(this.key, message.seq, message.moves);
      this.#byGraphId.set(message.graphId, message);
    }
    const after = { id: message.graphId, folder: folderAfter };
    const records: ChangeRecord[] = [];
    if (added.length > 0) records.push(this.#record("labelAdded", message, added, before, after));
    if (removed.length > 0) records.push(this.#record("labelRemoved", message, removed, before, after));
    return records;
  }

  #addToLabel(message: StoredMessage, label: string): void {
    this.#indexOf(this.#byLabel, label).insert(message);
    if (message.labels.has("UNREAD")) this.#bumpUnread(label, 1);
  }

  #removeFromLabel(message: StoredMessage, label: string): void {
    this.#byLabel.get(label)?.remove(message);
    if (message.labels.has("UNREAD")) this.#bumpUnread(label, -1);
  }

  #bumpUnread(label: string, delta: number): void {
    this.#unreadByLabel.set(label, (this.#unreadByLabel.get(label) ?? 0) + delta);
  }

  #indexOf<K>(map: Map<K, SortedIndex<StoredMessage>>, key: K): SortedIndex<StoredMessage> {
    let index = map.get(key);
    if (index === undefined) {
      index = new SortedIndex<StoredMessage>();
      map.set(key, index);
    }
    return index;
  }

  #record(
    kind: ChangeKind,
    message: StoredMessage,
    labelIds: readonly string[],
    graphBefore: ChangeRecord["graphBefore"],
    graphAfter: ChangeRecord["graphAfter"],
  ): ChangeRecord {
    this.#historyId += 1;
    message.historyId = this.#historyId;
    return {
      id: this.#historyId,
      at: this.#clock.now(),
      kind,
      messageId: message.id,
      threadId: message.threadId,
      labelIds: [...labelIds],
      labelsAfter: [...message.labels],
      graphBefore,
      graphAfter,
    };
  }

  #commit(records: readonly ChangeRecord[]): void {
    if (records.length === 0) return;
    this.#log.push(...records);
    this.#prune();
    for (const listener of this.#listeners) listener(records);
  }

  #prune(): void {
    const cutoff = this.#clock.now() - this.#retentionMs;
    while (this.#logHead < this.#log.length) {
      const record = this.#log[this.#logHead];
      if (record === undefined || record.at >= cutoff) break;
      this.#floor = record.id;
      this.#logHead += 1;
    }
    // Compact now and then so the array does not grow without bound.
    if (this.#logHead > 4096 && this.#logHead * 2 > this.#log.length) {
      this.#log = this.#log.slice(this.#logHead);
      this.#logHead = 0;
    }
  }
}
