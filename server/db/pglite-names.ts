/**
 * Frontend messages as one of several connections sharing PGlite's single session
 * (pglite-sessions.ts): each connection's prepared statement and portal names get its own prefix,
 * so two connections preparing "list_page" do not collide, and a closed connection's statements
 * can be deallocated without touching anyone else's.
 */

const PARSE = 0x50; // P: name, query, parameter types
const BIND = 0x42; // B: portal, statement, ...
const DESCRIBE = 0x44; // D: 'S' | 'P', name
const CLOSE = 0x43; // C: 'S' | 'P', name
const EXECUTE = 0x45; // E: portal, row limit
const STATEMENT = 0x53; // 'S' in Describe and Close

/** The prefix of one connection's names. */
export const namePrefix = (id: number): string => `c${id}_`;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The C string at `at`, and where the bytes after its terminator start. */
function cString(message: Uint8Array, at: number): { name: string; end: number } {
  const stop = message.indexOf(0, at);
  if (stop < 0) throw new Error("malformed frontend message: unterminated name");
  return { name: decoder.decode(message.subarray(at, stop)), end: stop + 1 };
}

/** `message` with the names between `at` and the bytes after them replaced (length updated). */
function rebuild(message: Uint8Array, head: number, names: string[], tail: number): Uint8Array {
  const encoded = names.map((n) => encoder.encode(n));
  const size = head + encoded.reduce((sum, n) => sum + n.length + 1, 0) + (message.length - tail);
  const out = new Uint8Array(size);
  out.set(message.subarray(0, head), 0);
  let at = head;
  for (const n of encoded) {
    out.set(n, at);
    at += n.length + 1;
  }
  out.set(message.subarray(tail), at);
  new DataView(out.buffer).setInt32(1, size - 1);
  return out;
}

const prefixed = (prefix: string, name: string) => (name === "" ? "" : prefix + name);

/**
 * The message with its statement and portal names prefixed (the unnamed ones stay unnamed: a
 * connection's batch runs whole, so nobody else's can replace them mid-way). `prepared` gets the
 * names a Parse creates; a Close of a statement removes it.
 */
export function renameMessage(message: Uint8Array, prefix: string, prepared: Set<string>): Uint8Array {
  switch (message[0]) {
    case PARSE: {
      const statement = cString(message, 5);
      if (statement.name === "") return message;
      prepared.add(prefix + statement.name);
      return rebuild(message, 5, [prefix + statement.name], statement.end);
    }
    case BIND: {
      const portal = cString(message, 5);
      const statement = cString(message, portal.end);
      if (portal.name === "" && statement.name === "") return message;
      return rebuild(
        message,
        5,
        [prefixed(prefix, portal.name), prefixed(prefix, statement.name)],
        statement.end,
      );
    }
    case DESCRIBE:
    case CLOSE: {
      const target = cString(message, 6);
      if (target.name === "") return message;
      if (message[0] === CLOSE && message[5] === STATEMENT) prepared.delete(prefix + target.name);
      return rebuild(message, 6, [prefix + target.name], target.end);
    }
    case EXECUTE: {
      const portal = cString(message, 5);
      if (portal.name === "") return message;
      return rebuild(message, 5, [prefix + portal.name], portal.end);
    }
    default:
      return message;
  }
}

const READY_FOR_QUERY = 0x5a; // Z: int32 5, status byte

/**
 * The transaction status of the ReadyForQuery that ends a reply: 'I' idle, 'T' in a transaction,
 * 'E' in a failed one; undefined when the reply does not end with one.
 */
export function readyStatus(reply: Uint8Array): "I" | "T" | "E" | undefined {
  const at = reply.length - 6;
  if (at < 0 || reply[at] !== READY_FOR_QUERY) return undefined;
  const view = new DataView(reply.buffer, reply.byteOffset + at + 1, 4);
  if (view.getInt32(0) !== 5) return undefined;
  const status = String.fromCharCode(reply[at + 5] ?? 0);
  return status === "I" || status === "T" || status === "E" ? status : undefined;
}
