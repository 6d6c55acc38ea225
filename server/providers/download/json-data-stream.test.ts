import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { JsonDataDecoder } from "./json-data-stream.ts";

async function decode(chunks: string[]): Promise<Buffer> {
  return buffer(Readable.from(chunks.map((c) => Buffer.from(c, "latin1"))).pipe(new JsonDataDecoder()));
}

describe("JsonDataDecoder", () => {
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_v, i) => (i * 37) % 256));
  const json = JSON.stringify({
    attachmentId: "ANGjdJabc",
    size: bytes.length,
    data: bytes.toString("base64url"),
  });

  it("decodes the data field whatever the chunking", async () => {
    expect((await decode([json])).equals(bytes)).toBe(true);
    for (const size of [1, 3, 7, 64]) {
      const chunks: string[] = [];
      for (let i = 0; i < json.length; i += size) chunks.push(json.slice(i, i + size));
      expect((await decode(chunks)).equals(bytes), `chunks of ${size}`).toBe(true);
    }
  });

  it("fails an answer without data, a cut answer and data that is not base64url", async () => {
    await expect(decode(['{"size": 3}'])).rejects.toThrow(/ended early/);
    await expect(decode([json.slice(0, json.length - 10)])).rejects.toThrow(/ended early/);
    await expect(decode(['{"data": "ab\\u0041"}'])).rejects.toThrow(/base64url/);
    await expect(decode([`{"x":"${"a".repeat(70_000)}`])).rejects.toThrow(/no data/);
  });
});
