/**
 * Mail with real attachments for the attachment specs: a PNG and a one-page PDF drawn here byte
 * by byte, an inline logo the HTML body names by cid:, and a forwarded message (.eml) with an
 * attachment of its own, as one raw MIME message the emulator stores as it is.
 */
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";

export const sha256 = (bytes: Buffer | Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A width x height RGB PNG: horizontal bands of the given colours. */
export function png(width: number, height: number, colours: [number, number, number][]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const colour = colours[Math.floor((y * colours.length) / height)] ?? [0, 0, 0];
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set(colour, 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A one-page PDF (A5) with a title line and a filled bar, with a correct cross-reference table. */
export function pdf(title: string): Buffer {
  const content = `BT /F1 24 Tf 40 500 Td (${title.replace(/[()\\]/g, "")}) Tj ET 0.86 0.15 0.15 rg 40 420 300 40 re f`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  // Padding comments make it a realistic few kilobytes ("Q3 Budget.pdf · 12 KB").
  let out = `%PDF-1.4\n${"% padding to a realistic size\n".repeat(420)}`;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const base64Lines = (bytes: Buffer) => (bytes.toString("base64").match(/.{1,76}/g) ?? []).join("\r\n");

/** RFC 2231 filename*: any name, control characters and right-to-left overrides included. */
const extendedName = (name: string) => `utf-8''${encodeURIComponent(name).replace(/'/g, "%27")}`;

export interface Part {
  filename: string;
  mimeType: string;
  bytes: Buffer;
  contentId?: string;
}

function partText(part: Part, disposition: "attachment" | "inline"): string {
  return [
    `Content-Type: ${part.mimeType}`,
    "Content-Transfer-Encoding: base64",
    `Content-Disposition: ${disposition}; filename*=${extendedName(part.filename)}`,
    ...(part.contentId ? [`Content-ID: <${part.contentId}>`] : []),
    "",
    base64Lines(part.bytes),
  ].join("\r\n");
}

export interface AttachmentMail {
  raw: string;
  subject: string;
  logo: Part;
  pdf: Part;
  image: Part;
  eml: { filename: string; subject: string; from: string; text: string; notes: Part };
}

/** The message the specs deliver: HTML with an inline logo, a PDF, a PNG and a forwarded .eml. */
export function attachmentMail(to: string, subject: string, extra: Part[] = []): AttachmentMail {
  const logo: Part = {
    filename: "logo.png",
    mimeType: "image/png",
    bytes: png(96, 32, [[79, 70, 229]]),
    contentId: "logo.1@mailwise.test",
  };
  const budget: Part = {
    filename: "Q3 Budget.pdf",
    mimeType: "application/pdf",
    bytes: pdf("Q3 Budget 2026"),
  };
  const chart: Part = {
    filename: "chart.png",
    mimeType: "image/png",
    bytes: png(320, 200, [
      [13, 148, 136],
      [234, 88, 12],
      [79, 70, 229],
    ]),
  };
  const notes: Part = {
    filename: "notes.txt",
    mimeType: "text/plain",
    bytes: Buffer.from("Notes from the planning meeting: ship in March.\n"),
  };
  const inner = {
    filename: "Original plan.eml",
    subject: "Original plan",
    from: "Lee Park <lee.park@example.com>",
    text: "Here is the original plan, with my notes attached.",
    notes,
  };
  const innerRaw = [
    `From: ${inner.from}`,
    `To: ${to}`,
    `Subject: ${inner.subject}`,
    "Date: Mon, 02 Nov 2026 09:30:00 +0000",
    "Message-ID: <original.plan@mailwise.test>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="inner-b"',
    "",
    "--inner-b",
    "Content-Type: text/plain; charset=utf-8",
    "",
    inner.text,
    "--inner-b",
    partText(notes, "attachment"),
    "--inner-b--",
    "",
  ].join("\r\n");
  const html = `<p>Hello, the Q3 numbers are attached.</p><p><img src="cid:${logo.contentId}" alt="Company logo" width="96" height="32"></p><p><img src="https://images.example.com/banner.png" alt="Remote banner"></p>`;
  const raw = [
    "From: Dana Fox <dana.fox@example.com>",
    `To: ${to}`,
    `Subject: ${subject}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${sha256(Buffer.from(subject + to)).slice(0, 16)}@mailwise.test>`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="mixed-b"',
    "",
    "--mixed-b",
    'Content-Type: multipart/related; boundary="related-b"',
    "",
    "--related-b",
    "Content-Type: text/html; charset=utf-8",
    "",
    html,
    "--related-b",
    partText(logo, "inline"),
    "--related-b--",
    "--mixed-b",
    partText(budget, "attachment"),
    "--mixed-b",
    partText(chart, "attachment"),
    ...extra.flatMap((part) => ["--mixed-b", partText(part, "attachment")]),
    "--mixed-b",
    "Content-Type: message/rfc822",
    `Content-Disposition: attachment; filename*=${extendedName(inner.filename)}`,
    "",
    innerRaw,
    "--mixed-b--",
    "",
  ].join("\r\n");
  return { raw, subject, logo, pdf: budget, image: chart, eml: inner };
}

/**
 * How many pixels of a screenshot are close to `colour`: the way to see into a frame that runs no
 * script (the test runner's own scripts are refused there too). The page decodes the PNG.
 */
export async function pixelsOfColour(
  page: import("@playwright/test").Page,
  shot: Buffer,
  colour: [number, number, number],
): Promise<number> {
  return page.evaluate(
    async ({ b64, rgb }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext("2d");
      if (!ctx) return 0;
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (
          Math.abs((data[i] ?? 0) - rgb[0]) < 12 &&
          Math.abs((data[i + 1] ?? 0) - rgb[1]) < 12 &&
          Math.abs((data[i + 2] ?? 0) - rgb[2]) < 12
        )
          n++;
      return n;
    },
    { b64: shot.toString("base64"), rgb: colour },
  );
}

/**
 * The bytes of a base64 part named `filename` in a raw message, decoded here without a MIME
 * library (one that normalizes text parts' line ends would change an .ics).
 */
export function base64PartOf(raw: string, filename: string): Buffer {
  const named = raw.indexOf(`filename="${filename}"`);
  if (named < 0) throw new Error(`no part named ${filename}`);
  const start = raw.indexOf("\r\n\r\n", named);
  const end = raw.indexOf("\r\n--", start);
  return Buffer.from(raw.slice(start + 4, end).replace(/\s+/g, ""), "base64");
}
