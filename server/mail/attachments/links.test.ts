import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../http/errors.ts";
import { contentDisposition, safeFilename, servedType } from "./http-headers.ts";
import { createAttachmentLinks } from "./links.ts";

const USER = "0b7c6a52-3f1e-4c55-9d2a-1f6f2f0c9a11";
const EMAIL = "5d1e8f3a-7c2b-4e9d-8a6f-3b2c1d0e9f88";

function clockAt(ms: number) {
  const clock = { at: ms, now: () => new Date(clock.at) };
  return clock;
}

const code = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err instanceof DomainError ? err.code : "other";
  }
  return "none";
};

describe("signed attachment links", () => {
  const key = randomBytes(32);
  const token = (url: string) => url.slice("/api/attachments/".length);

  it("grants what was signed until the hour is over", () => {
    const clock = clockAt(Date.UTC(2026, 0, 1));
    const links = createAttachmentLinks(key, clock);
    const url = links.url({
      userId: USER,
      emailId: EMAIL,
      attachmentId: "abcDEF_-12345678~2",
      mode: "inline",
    });
    expect(links.verify(token(url))).toMatchObject({
      userId: USER,
      emailId: EMAIL,
      attachmentId: "abcDEF_-12345678~2",
      mode: "inline",
    });
    clock.at += 3599_000;
    expect(links.verify(token(url)).mode).toBe("inline");
    clock.at += 1_000;
    expect(code(() => links.verify(token(url)))).toBe("invalid_link");
  });

  it("refuses another key's links, changed payloads and junk", () => {
    const clock = clockAt(Date.UTC(2026, 0, 1));
    const links = createAttachmentLinks(key, clock);
    const other = createAttachmentLinks(randomBytes(32), clock);
    const url = other.url({ userId: USER, emailId: EMAIL, attachmentId: "abc", mode: "download" });
    expect(code(() => links.verify(token(url)))).toBe("invalid_link");
    const mine = token(links.url({ userId: USER, emailId: EMAIL, attachmentId: "abc", mode: "download" }));
    const [payload = "", mac = ""] = mine.split(".");
    const changed = Buffer.from(Buffer.from(payload, "base64url").toString().replace(" d ", " i ")).toString(
      "base64url",
    );
    expect(code(() => links.verify(`${changed}.${mac}`))).toBe("invalid_link");
    for (const junk of ["", ".", "a.b.c", "x".repeat(600), `${payload}.`]) {
      expect(code(() => links.verify(junk))).toBe("invalid_link");
    }
  });
});

describe("attachment headers", () => {
  it("names files per RFC 6266 with an ASCII fallback and the UTF-8 name", () => {
    expect(contentDisposition("attachment", "Q3 Budget.pdf")).toBe(
      `attachment; filename="Q3 Budget.pdf"; filename*=UTF-8''Q3%20Budget.pdf`,
    );
    expect(contentDisposition("attachment", "Résumé «final».pdf")).toBe(
      `attachment; filename="R_sum_ _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%C2%ABfinal%C2%BB.pdf`,
    );
    expect(contentDisposition("inline", `a"b\\c%d'e.png`)).toBe(
      `inline; filename="a_b_c_d'e.png"; filename*=UTF-8''a_b_c%25d%27e.png`,
    );
  });

  it("makes hostile names safe to save", () => {
    expect(safeFilename("../../etc/passwd")).toBe("_.._etc_passwd");
    expect(safeFilename("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
    expect(safeFilename("a\u0000b\nc\u007f.txt")).toBe("abc.txt");
    expect(safeFilename(" ... ")).toBe("attachment");
    const long = safeFilename(`${"é".repeat(300)}.pdf`);
    expect([...long]).toHaveLength(200);
    expect(long.endsWith(".pdf")).toBe(true);
  });

  it("serves inline only images and PDFs, and never active types as themselves", () => {
    expect(servedType("image/png", "inline")).toEqual({ type: "image/png", inline: true });
    expect(servedType("application/pdf", "inline")).toEqual({ type: "application/pdf", inline: true });
    for (const type of [
      "image/svg+xml",
      "text/html",
      "application/xhtml+xml",
      "text/xml",
      "application/javascript",
    ]) {
      expect(servedType(type, "inline")).toEqual({ type: "application/octet-stream", inline: false });
      expect(servedType(type, "download")).toEqual({ type: "application/octet-stream", inline: false });
    }
    expect(servedType("application/zip", "download")).toEqual({ type: "application/zip", inline: false });
    expect(servedType('text/plain"; x', "download").type).toBe("application/octet-stream");
  });
});
