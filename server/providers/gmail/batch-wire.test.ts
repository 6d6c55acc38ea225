import { describe, expect, it } from "vitest";
import { boundaryOf, decodeBatch, encodeBatch } from "./batch-wire.ts";

describe("Gmail batch wire format", () => {
  it("encodes one application/http part per call with our Content-ID", () => {
    const { boundary, body } = encodeBatch([
      { id: "m0", method: "GET", path: "/gmail/v1/users/me/messages/abc?format=full" },
      { id: "t1", method: "POST", path: "/gmail/v1/users/me/messages/def/trash", body: { x: 1 } },
    ]);
    expect(
      body.startsWith(
        `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <m0>\r\n\r\nGET /gmail/v1/users/me/messages/abc?format=full\r\n`,
      ),
    ).toBe(true);
    expect(body).toContain(
      'POST /gmail/v1/users/me/messages/def/trash\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"x":1}',
    );
    expect(body.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
  });

  it("decodes Google's answer by Content-ID, in any order, with inner statuses", () => {
    const answer = [
      "--batch_abc",
      "Content-Type: application/http",
      "Content-ID: <response-t1>",
      "",
      "HTTP/1.1 429 Too Many Requests",
      "Content-Type: application/json; charset=UTF-8",
      "",
      '{"error":{"code":429}}',
      "--batch_abc",
      "Content-Type: application/http",
      "Content-ID: <response-m0>",
      "",
      "HTTP/1.1 200 OK",
      "Content-Type: application/json; charset=UTF-8",
      "Vary: Origin",
      "",
      '{"id":"abc","raw":"--batch_abc-lookalike"}',
      "--batch_abc--",
      "",
    ].join("\r\n");
    const parts = decodeBatch(answer, "batch_abc");
    expect(parts.get("m0")?.status).toBe(200);
    expect(JSON.parse(parts.get("m0")?.text ?? "")).toEqual({ id: "abc", raw: "--batch_abc-lookalike" });
    expect(parts.get("t1")?.status).toBe(429);
    expect(parts.get("t1")?.headers.get("content-type")).toContain("application/json");
  });

  it("reads quoted and bare boundaries", () => {
    expect(boundaryOf('multipart/mixed; boundary="batch_1"')).toBe("batch_1");
    expect(boundaryOf("multipart/mixed; boundary=batch_2")).toBe("batch_2");
    expect(boundaryOf("application/json")).toBeUndefined();
  });
});
