import { describe, expect, it } from "vitest";
import { safeContentType, safeFileName } from "./file-names.ts";

describe("upload names and types", () => {
  it("keeps the last path part without control or bidirectional characters, bounded", () => {
    expect(safeFileName("C:\\fakepath\\report.pdf")).toBe("report.pdf");
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("evil\u202Efdp.exe")).toBe("evilfdp.exe");
    expect(safeFileName("a\r\nBcc: x@example.com")).toBe("aBcc: x@example.com");
    expect(safeFileName("..")).toBe("attachment");
    expect(safeFileName("")).toBe("attachment");
    expect(safeFileName("Résumé 2026.pdf")).toBe("Résumé 2026.pdf");
    expect(safeFileName("x".repeat(1000))).toHaveLength(255);
  });

  it("keeps a plain type/subtype and refuses anything else", () => {
    expect(safeContentType("Application/PDF; charset=x")).toBe("application/pdf");
    expect(safeContentType("text/html\r\nX-Evil: 1")).toBe("application/octet-stream");
    expect(safeContentType("")).toBe("application/octet-stream");
  });
});
