/**
 * File extensions the link and attachment checks share. Each check adds what only applies to
 * it: links also count installers for phones and Macs, attachments also disk images.
 */

/** Files that run code when opened on Windows. */
export const RUNS_CODE = [
  "exe",
  "scr",
  "pif",
  "bat",
  "cmd",
  "vbs",
  "vbe",
  "js",
  "jse",
  "wsf",
  "hta",
  "msi",
  "jar",
  "ps1",
  "lnk",
  "cpl",
  "reg",
  "appx",
  "msix",
] as const;

/** Extensions people trust, which an attacker puts in front of a real one (invoice.pdf.exe). */
export const TRUSTED_LOOKING = [
  "pdf",
  "doc",
  "docx",
  "xls",
  "xlsx",
  "jpg",
  "jpeg",
  "png",
  "txt",
  "zip",
] as const;
