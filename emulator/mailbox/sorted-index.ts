/**
 * Messages ordered oldest to newest by (internalDate, seq). Listing walks it from the newest end
 * and resumes after a key, so a page costs O(log n + page) however large the mailbox is.
 */
export interface Ordered {
  readonly internalDate: number;
  readonly seq: number;
}

export interface OrderKey {
  readonly internalDate: number;
  readonly seq: number;
}

function compare(a: OrderKey, b: OrderKey): number {
  return a.internalDate - b.internalDate || a.seq - b.seq;
}

export class SortedIndex<T extends Ordered> {
  #items: T[] = [];

  get size(): number {
    return this.#items.length;
  }

  /** First position whose item is >= key. */
  #lowerBound(key: OrderKey): number {
    let low = 0;
    let high = this.#items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const item = this.#items[mid];
      if (item !== undefined && compare(item, key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  insert(item: T): void {
    const last = this.#items[this.#items.length - 1];
    // New mail is almost always the newest: append without searching.
    if (last === undefined || compare(last, item) < 0) this.#items.push(item);
    else this.#items.splice(this.#lowerBound(item), 0, item);
  }

  remove(item: T): void {
    const at = this.#lowerBound(item);
    if (this.#items[at] === item) this.#items.splice(at, 1);
  }

  /** Newest first, starting strictly older than `after` when given. */
  *newestFirst(after?: OrderKey): Generator<T> {
    let index = after === undefined ? this.#items.length - 1 : this.#lowerBound(after) - 1;
    for (; index >= 0; index -= 1) {
      const item = this.#items[index];
      if (item !== undefined) yield item;
    }
  }

  /** The item at a newest-first offset (for Graph's $skip). */
  atNewestOffset(offset: number): T | undefined {
    return this.#items[this.#items.length - 1 - offset];
  }

  *oldestFirst(): Generator<T> {
    yield* this.#items;
  }
}
