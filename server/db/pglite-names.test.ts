import { describe, expect, it } from "vitest";
import { readyStatus, renameMessage } from "./pglite-names.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A typed frontend message: type byte, int32 length, payload. */
function message(type: string, ...parts: Array<string | number[]>): Uint8Array {
  const payload = parts.flatMap((p) => (typeof p === "string" ? [...enc.encode(p), 0] : p));
  const out = new Uint8Array(5 + payload.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + payload.length);
  out.set(payload, 5);
  return out;
}

const lengthOf = (m: Uint8Array) => new DataView(m.buffer, m.byteOffset).getInt32(1);

describe("renameMessage", () => {
  it("prefixes a Parse's statement name, keeps its query and types, and records it", () => {
    const prepared = new Set<string>();
    const out = renameMessage(message("P", "list_page", "select 1", [0, 1, 0, 0, 0, 23]), "c3_", prepared);
    expect(out).toEqual(message("P", "c3_list_page", "select 1", [0, 1, 0, 0, 0, 23]));
    expect(lengthOf(out)).toBe(out.length - 1);
    expect([...prepared]).toEqual(["c3_list_page"]);
  });

  it("leaves the unnamed statement and portal alone", () => {
    const prepared = new Set<string>();
    const parse = message("P", "", "select 1", [0, 0]);
    const bind = message("B", "", "", [0, 0, 0, 0, 0, 0]);
    expect(renameMessage(parse, "c1_", prepared)).toBe(parse);
    expect(renameMessage(bind, "c1_", prepared)).toBe(bind);
    expect(prepared.size).toBe(0);
  });

  it("prefixes Bind's statement (and portal), Describe, Execute and Close; a Close forgets the statement", () => {
    const prepared = new Set(["c2_s"]);
    expect(dec.decode(renameMessage(message("B", "", "s", [0, 0, 0, 0, 0, 0]), "c2_", prepared))).toContain(
      "\0c2_s\0",
    );
    expect(renameMessage(message("B", "p", "s", [0, 0]), "c2_", prepared)).toEqual(
      message("B", "c2_p", "c2_s", [0, 0]),
    );
    expect(renameMessage(message("D", [83], "s"), "c2_", prepared)).toEqual(message("D", [83], "c2_s"));
    expect(renameMessage(message("E", "p", [0, 0, 0, 0]), "c2_", prepared)).toEqual(
      message("E", "c2_p", [0, 0, 0, 0]),
    );
    expect(renameMessage(message("C", [83], "s"), "c2_", prepared)).toEqual(message("C", [83], "c2_s"));
    expect(prepared.size).toBe(0);
  });

  it("passes other messages through untouched", () => {
    const sync = message("S");
    const query = message("Q", "select 1");
    expect(renameMessage(sync, "c1_", new Set())).toBe(sync);
    expect(renameMessage(query, "c1_", new Set())).toBe(query);
  });

  it("refuses a name with no terminator instead of reading past the message", () => {
    const broken = new Uint8Array([0x50, 0, 0, 0, 7, 0x61, 0x62, 0x63]);
    expect(() => renameMessage(broken, "c1_", new Set())).toThrow(/unterminated/);
  });
});

describe("readyStatus", () => {
  const ready = (status: string) => [0x5a, 0, 0, 0, 5, status.charCodeAt(0)];
  it("reads the transaction status of the ReadyForQuery that ends a reply", () => {
    const complete = [0x43, 0, 0, 0, 11, ...enc.encode("SELECT 1"), 0];
    expect(readyStatus(Uint8Array.from([...complete, ...ready("I")]))).toBe("I");
    expect(readyStatus(Uint8Array.from(ready("T")))).toBe("T");
    expect(readyStatus(Uint8Array.from(ready("E")))).toBe("E");
  });
  it("is undefined when the reply does not end with one", () => {
    expect(readyStatus(new Uint8Array(0))).toBeUndefined();
    expect(readyStatus(Uint8Array.from([0x43, 0, 0, 0, 5, 0x5a]))).toBeUndefined();
  });
});
