import { Readable } from "node:stream";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import type { OutgoingAttachment } from "../mail-provider.ts";
import { buildRfc822 } from "./build.ts";
import { collect, mimeParameter, withAttachments } from "./mixed.ts";

const file = (
  fileName: string,
  bytes: Buffer,
  contentType = "application/octet-stream",
): OutgoingAttachment => ({
  fileName,
  contentType,
  size: bytes.length,
  // Odd chunk sizes: the base64 lines must not depend on how the bytes arrive.
  open: async () =>
    Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000, 1001), bytes.subarray(1001)]),
});

describe("multipart/mixed around build.ts's message", () => {
  it("keeps the body part, adds each file with its exact bytes and name", async () => {
    const message = buildRfc822({
      from: { name: "Alex", address: "alex@example.com" },
      to: [{ name: "", address: "sam@example.com" }],
      cc: [],
      bcc: [],
      subject: "Files",
      body: "Hello ünïcode",
    });
    const a = Buffer.from(Array.from({ length: 70_001 }, (_, i) => (i * 7) % 256));
    const name = `${"Très long nom de fichier, ".repeat(6)}«final».pdf`;
    const raw = await collect(
      withAttachments(message, [file(name, a, "application/pdf"), file("b.txt", Buffer.from("b"))]),
    );
    const text = raw.toString("utf8");
    expect(text).toMatch(/^Content-Type: multipart\/mixed; boundary="=_mw_mixed_[0-9a-f]+"$/m);
    expect(text.split("\r\n").every((line) => line.length <= 998)).toBe(true);
    const parsed = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
    expect(parsed.subject).toBe("Files");
    expect(parsed.text?.trim()).toBe("Hello ünïcode");
    expect(parsed.attachments.map((x) => x.filename)).toEqual([name, "b.txt"]);
    expect(Buffer.from(parsed.attachments[0]?.content as ArrayBuffer).equals(a)).toBe(true);
    expect(parsed.attachments[0]?.mimeType).toBe("application/pdf");
  });

  it("leaves a message without files as it is", async () => {
    expect((await collect(withAttachments("Subject: x\r\n\r\nbody\r\n", []))).toString()).toBe(
      "Subject: x\r\n\r\nbody\r\n",
    );
  });
});

describe("mimeParameter", () => {
  it("quotes plain ASCII and encodes the rest by RFC 2231, never splitting a %XX", () => {
    expect(mimeParameter("filename", "report.pdf")).toBe('filename="report.pdf"');
    expect(mimeParameter("filename", 'a"b.pdf')).toBe("filename*=UTF-8''a%22b.pdf");
    expect(mimeParameter("filename", "é.pdf")).toBe("filename*=UTF-8''%C3%A9.pdf");
    const long = mimeParameter("filename", "é".repeat(40));
    const segments = long.split(";\r\n ");
    expect(segments[0]).toMatch(/^filename\*0\*=UTF-8''(%C3%A9)+$/);
    segments.slice(1).forEach((segment, i) => {
      expect(segment.startsWith(`filename*${i + 1}*=`)).toBe(true);
    });
    expect(segments.map((x) => x.slice(x.indexOf("=") + 1)).join("")).toBe(`UTF-8''${"%C3%A9".repeat(40)}`);
    for (const s of segments) expect(s).not.toMatch(/%[0-9A-F]?$/);
  });
});
