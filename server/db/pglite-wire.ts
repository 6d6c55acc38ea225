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
  /** PGlite cannot go on (a PANIC, a WebAssembly abort, a statement that never ends): the thread is done. */
  | { type: "fatal"; message: string; code?: string }
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

const ERROR_RESPONSE = 0x45;

/**
 * The first ErrorResponse of severity PANIC or FATAL among backend messages, if any. PostgreSQL
 * ends its process after either (a WAL file that could not be written is a PANIC); PGlite is that
 * process, and afterwards never answers again, so its thread must be replaced.
 */
export function fatalErrorIn(
  reply: Uint8Array,
): { severity: string; code?: string; message: string } | undefined {
  const view = new DataView(reply.buffer, reply.byteOffset, reply.byteLength);
  const text = new TextDecoder();
  for (let at = 0; at + 5 <= reply.length; ) {
    const length = view.getInt32(at + 1);
    const end = at + 1 + length;
    if (length < 4 || end > reply.length) return undefined;
    if (reply[at] === ERROR_RESPONSE) {
      const fields = new Map<string, string>();
      for (let f = at + 5; f < end && reply[f] !== 0; ) {
        const type = String.fromCharCode(reply[f] ?? 0);
        const stop = reply.indexOf(0, f + 1);
        if (stop < 0 || stop >= end) break;
        fields.set(type, text.decode(reply.subarray(f + 1, stop)));
        f = stop + 1;
      }
      // V is the severity never translated (PostgreSQL 9.6+); S may be in the server's language.
      const severity = fields.get("V") ?? fields.get("S") ?? "";
      if (severity === "PANIC" || severity === "FATAL") {
        const code = fields.get("C");
        return { severity, message: fields.get("M") ?? severity, ...(code ? { code } : {}) };
      }
    }
    at = end;
  }
  return undefined;
}
