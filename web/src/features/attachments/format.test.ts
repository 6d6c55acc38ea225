import { describe, expect, it } from "vitest";
import type { Attachment } from "../../../../contract/attachments.ts";
import { inlineImagesOf } from "../mail-html/inline-images.ts";
import { attachmentErrorText, errorOf } from "./download.ts";
import {
  displayFileName,
  fileKind,
  formatSize,
  MAX_SHOWN_NAME,
  saveFileName,
  shortFileName,
} from "./format.ts";
import { listedAttachments } from "./listed.ts";

describe("formatSize", () => {
  it("reads as mail clients show it", () => {
    expect(formatSize(412 * 1024)).toBe("412 KB");
    expect(formatSize(421_888)).toBe("412 KB");
    expect(formatSize(0)).toBe("0 bytes");
    expect(formatSize(1)).toBe("1 byte");
    expect(formatSize(1023)).toBe("1023 bytes");
    expect(formatSize(1024)).toBe("1 KB");
    expect(formatSize(2.4 * 1024 * 1024)).toBe("2.4 MB");
    expect(formatSize(25 * 1024 * 1024)).toBe("25 MB");
    expect(formatSize(3 * 1024 ** 3)).toBe("3 GB");
    expect(formatSize(Number.NaN)).toBe("size unknown");
  });
});

describe("displayFileName", () => {
  it("shows a right-to-left override, control characters and separators as visible marks", () => {
    const hostile = "invoice\u202Efdp.exe";
    expect(displayFileName(hostile)).toBe("invoice\uFFFDfdp.exe");
    expect(displayFileName("a\u0000b\u001bc\u0085d\u2028e\u2066f\u200fg")).toBe(
      "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg",
    );
    // Slashes are fine to show: they are text here, never a path.
    expect(displayFileName("../../etc/passwd")).toBe("../../etc/passwd");
    expect(displayFileName("  ")).toBe("Unnamed attachment");
    expect(displayFileName("Q3 Budget.pdf")).toBe("Q3 Budget.pdf");
  });

  it("shortens a long name in the middle, keeping its extension", () => {
    const long = `${"a".repeat(296)}.pdf`;
    const short = shortFileName(long);
    expect([...short].length).toBe(MAX_SHOWN_NAME);
    expect(short.endsWith("aaaa.pdf")).toBe(true);
    expect(short).toContain("…");
    expect(shortFileName("Q3 Budget.pdf")).toBe("Q3 Budget.pdf");
    // Code points, not UTF-16 units: a surrogate pair is never cut in half.
    expect(shortFileName("😀".repeat(200))).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe("saveFileName", () => {
  it("saves under a name with no path, reserved or disguising characters", () => {
    expect(saveFileName("../../etc/passwd")).toBe("_.._etc_passwd");
    expect(saveFileName("C:\\Windows\\evil.bat")).toBe("C__Windows_evil.bat");
    expect(saveFileName("invoice\u202Efdp.exe")).toBe("invoice_fdp.exe");
    expect(saveFileName('a<b>c:"d"|e?f*g\u0007.txt')).toBe("a_b_c__d__e_f_g_.txt");
    expect(saveFileName(".hidden")).toBe("hidden");
    expect(saveFileName("...")).toBe("attachment");
    expect(saveFileName("")).toBe("attachment");
  });

  it("keeps the extension of a 300-character name", () => {
    const saved = saveFileName(`${"b".repeat(296)}.pdf`);
    expect(saved.length).toBe(180);
    expect(saved.endsWith(".pdf")).toBe(true);
  });
});

describe("fileKind", () => {
  it("names the icon by type, then by extension", () => {
    expect(fileKind("application/pdf", "x")).toBe("pdf");
    expect(fileKind("image/png", "logo.png")).toBe("image");
    expect(fileKind("application/octet-stream", "Report.DOCX")).toBe("document");
    expect(fileKind("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "r")).toBe(
      "document",
    );
    expect(fileKind("application/zip", "a.zip")).toBe("archive");
    expect(fileKind("text/calendar", "invite.ics")).toBe("calendar");
    expect(fileKind("message/rfc822", "fwd.eml")).toBe("message");
    expect(fileKind("application/octet-stream", "fwd", true)).toBe("message");
    expect(fileKind("application/octet-stream", "blob")).toBe("other");
  });
});

function attachment(over: Partial<Attachment>): Attachment {
  return {
    id: "a1",
    filename: "f.png",
    mimeType: "image/png",
    size: 10,
    inline: false,
    contentId: null,
    preview: "image",
    isMessage: false,
    url: "/api/attachments/t1",
    inlineUrl: "/api/attachments/t2",
    ...over,
  };
}

describe("listedAttachments", () => {
  it("lists everything but the images the body shows in place", () => {
    const logo = attachment({ id: "logo", inline: true, contentId: "Logo@Example" });
    const stray = attachment({ id: "stray", inline: true, contentId: "unused@x" });
    const pdf = attachment({
      id: "pdf",
      filename: "Q3 Budget.pdf",
      mimeType: "application/pdf",
      preview: "pdf",
    });
    const html = '<p>Hi</p><img src="cid:logo%40example">';
    expect(listedAttachments([logo, stray, pdf], html).map((a) => a.id)).toEqual(["stray", "pdf"]);
    // Without an HTML body nothing is shown in place, so everything is listed.
    expect(listedAttachments([logo, pdf], null).map((a) => a.id)).toEqual(["logo", "pdf"]);
  });
});

describe("inlineImagesOf", () => {
  const origin = "http://127.0.0.1:4182";
  it("maps Content-IDs to absolute addresses on the app's origin and names their folder for the CSP", () => {
    const { images, source } = inlineImagesOf(
      [
        attachment({ inline: true, contentId: "<Logo@Example>", inlineUrl: "/api/attachments/abc" }),
        attachment({
          inline: true,
          contentId: "other@x",
          inlineUrl: "https://evil.example/api/attachments/x",
        }),
        attachment({ inline: false, contentId: null }),
      ],
      origin,
    );
    expect([...images]).toEqual([["logo@example", `${origin}/api/attachments/abc`]]);
    expect(source).toBe(`${origin}/api/attachments/`);
  });

  it("names no CSP source when the mail has no cid: image", () => {
    expect(inlineImagesOf([attachment({})], origin).source).toBeUndefined();
  });
});

describe("errors", () => {
  it("reads the server's code and says it in words", async () => {
    const res = new Response(JSON.stringify({ error: { code: "provider_timeout", message: "slow" } }), {
      status: 504,
      headers: { "content-type": "application/json" },
    });
    const err = await errorOf(res);
    expect(err.code).toBe("provider_timeout");
    expect(attachmentErrorText(err.code, "outlook")).toBe(
      "Outlook did not answer in time. Try again in a moment.",
    );
    expect((await errorOf(new Response("<html>gone</html>", { status: 404 }))).code).toBe(
      "attachment_not_found",
    );
    for (const code of ["attachment_not_found", "provider_reauth_required", "invalid_link", "http_500"])
      expect(attachmentErrorText(code, "gmail")).not.toMatch(/[{}]/);
  });
});
