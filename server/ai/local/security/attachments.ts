import type { SecurityReason } from "../../../../contract/ai.ts";
import { RUNS_CODE, TRUSTED_LOOKING } from "./file-types.ts";

export interface AttachmentInfo {
  filename: string;
  mimeType?: string;
}

/** Executables and script/disk-image containers that run code when opened. */
const EXECUTABLE = new Set<string>([...RUNS_CODE, "com", "iso", "img", "vhd", "vhdx"]);
/** Office formats that carry macros. */
const MACRO = new Set(["docm", "xlsm", "pptm", "dotm", "xltm", "xlam", "ppsm", "potm", "xlsb"]);
/** Extensions people trust, which an attacker puts in front of a real one (invoice.pdf.exe). */
const DECOY = new Set<string>([...TRUSTED_LOOKING, "ppt", "pptx", "csv"]);
/** HTML attachments are a common vehicle for fake login pages. */
const HTML = new Set(["html", "htm", "shtml", "svg"]);

export function checkAttachments(attachments: readonly AttachmentInfo[]): SecurityReason[] {
  const reasons: SecurityReason[] = [];
  for (const attachment of attachments.slice(0, 100)) {
    // Right-to-left override makes "invoice_fdp.exe" display as "invoice_exe.pdf".
    const rtlo = /[\u202e\u202d\u200e\u200f]/.test(attachment.filename);
    const name = attachment.filename
      .replace(/[\u202a-\u202e\u200e\u200f]/g, "")
      .trim()
      .toLowerCase();
    const parts = name.split(".").map((p) => p.trim());
    const ext = parts.length > 1 ? (parts[parts.length - 1] ?? "") : "";
    const before = parts.length > 2 ? (parts[parts.length - 2] ?? "") : "";
    const shown = attachment.filename.slice(0, 120);
    if (rtlo) {
      reasons.push({
        code: "attachment_rtlo",
        severity: "danger",
        message: `The attachment "${shown}" hides its real file type with reversed text.`,
      });
    } else if (EXECUTABLE.has(ext) && DECOY.has(before)) {
      reasons.push({
        code: "attachment_double_extension",
        severity: "danger",
        message: `The attachment "${shown}" pretends to be a .${before} file but is a .${ext} program.`,
      });
    } else if (EXECUTABLE.has(ext)) {
      reasons.push({
        code: "attachment_executable",
        severity: "danger",
        message: `The attachment "${shown}" is a .${ext} file, which can run code on your computer.`,
      });
    } else if (MACRO.has(ext)) {
      reasons.push({
        code: "attachment_macro",
        severity: "warning",
        message: `The attachment "${shown}" is an Office file with macros (.${ext}).`,
      });
    } else if (HTML.has(ext)) {
      reasons.push({
        code: "attachment_html",
        severity: "warning",
        message: `The attachment "${shown}" is a web page, a common way to deliver fake sign-in forms.`,
      });
    }
  }
  return reasons;
}
