import { describe, expect, it } from "vitest";
import { fatalErrorIn } from "./pglite-wire.ts";

/** A backend message: type byte, length (itself included), body. */
function message(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

/** An ErrorResponse with the given fields, each a type letter and a C string, then a zero. */
function errorResponse(fields: Record<string, string>): Uint8Array {
  const text = `${Object.entries(fields)
    .map(([k, v]) => `${k}${v}\0`)
    .join("")}\0`;
  return message("E", new TextEncoder().encode(text));
}

const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe("fatalErrorIn", () => {
  it("finds PGlite's PANIC on a WAL file that cannot be written, after other messages", () => {
    const reply = join(
      message("1", new Uint8Array(0)),
      errorResponse({
        S: "PANIC",
        V: "PANIC",
        C: "53100",
        M: 'could not write to file "pg_wal/xlogtemp.42": No space left on device',
      }),
    );
    expect(fatalErrorIn(reply)).toEqual({
      severity: "PANIC",
      code: "53100",
      message: 'could not write to file "pg_wal/xlogtemp.42": No space left on device',
    });
  });

  it("leaves an ordinary ERROR (a table that cannot grow) and a clean reply alone", () => {
    const error = errorResponse({ S: "ERROR", V: "ERROR", C: "53100", M: "could not extend file" });
    const ready = message("Z", new TextEncoder().encode("I"));
    expect(fatalErrorIn(join(error, ready))).toBeUndefined();
    expect(fatalErrorIn(ready)).toBeUndefined();
    expect(fatalErrorIn(new Uint8Array(0))).toBeUndefined();
  });

  it("reads the untranslated severity (V) before the localised one (S)", () => {
    expect(fatalErrorIn(errorResponse({ S: "FATAL_LOCALISED", V: "FATAL", M: "gone" }))?.severity).toBe(
      "FATAL",
    );
  });
});
