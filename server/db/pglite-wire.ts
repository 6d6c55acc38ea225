/** What the main thread and the PGlite worker say to each other over the worker's port. */
export type ToWorker =
  | { type: "data"; id: number; bytes: Uint8Array }
  | { type: "close"; id: number }
  | { type: "shutdown" };

export type FromWorker =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "data"; id: number; bytes: Uint8Array }
  | { type: "error"; id: number; message: string }
  | { type: "closed" };

function concat(a: Uint8Array | undefined, b: Uint8Array): Uint8Array {
  if (!a || a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Whole frontend messages out of a byte stream. A connection opens with the startup message
 * (length first, no type byte); every later message is a type byte, then its length. A partial
 * message stays in `rest` until the next bytes arrive.
 */
export function splitMessages(
  carried: Uint8Array | undefined,
  bytes: Uint8Array,
  startup: boolean,
): { messages: Uint8Array[]; rest: Uint8Array } {
  const buffer = concat(carried, bytes);
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const messages: Uint8Array[] = [];
  let at = 0;
  for (;;) {
    const first = startup && messages.length === 0;
    if (buffer.length - at < (first ? 4 : 5)) break;
    const length = first ? view.getInt32(at) : 1 + view.getInt32(at + 1);
    if (buffer.length - at < length) break;
    messages.push(buffer.subarray(at, at + length));
    at += length;
  }
  return { messages, rest: buffer.slice(at) };
}
