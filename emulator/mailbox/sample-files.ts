import { deflateRawSync, deflateSync } from "node:zlib";
import { seededRandom } from "./random.ts";

/**
 * Small real files for the seeded mailboxes' attachments, built in code so every run holds the
 * same bytes: a PDF, PNG and JPEG images, a zip and a .docx (which is a zip). Each opens in the
 * program its type names; none is a fixture copied from elsewhere.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG and zip use it (ISO 3309). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A one-page PDF 1.4 showing `lines` in Helvetica, with a correct cross-reference table. */
export function samplePdf(title: string, lines: readonly string[]): Buffer {
  const pdfText = (text: string) => text.replace(/[\\()]/g, "\\$&").replace(/[^\x20-\x7e]/g, "?");
  const content = [
    "BT /F1 20 Tf 72 760 Td",
    `(${pdfText(title)}) Tj`,
    "/F1 12 Tf",
    ...lines.map((line) => `0 -22 Td (${pdfText(line)}) Tj`),
    "ET",
  ].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Title (${pdfText(title)}) /Producer (Mailwise emulator) >>`,
  ];
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** An RGB colour at pixel (x, y). */
export type Painter = (x: number, y: number) => readonly [number, number, number];

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A truecolour 8-bit PNG of width x height painted by `paint`. */
export function samplePng(width: number, height: number, paint: Painter): Buffer {
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y += 1) {
    const start = y * (1 + width * 3);
    rows[start] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = paint(x, y);
      rows[start + 1 + x * 3] = r;
      rows[start + 2 + x * 3] = g;
      rows[start + 3 + x * 3] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Writes bits MSB first, with JPEG's byte stuffing (0x00 after every 0xFF). */
class BitWriter {
  readonly bytes: number[] = [];
  #acc = 0;
  #count = 0;
  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i -= 1) {
      this.#acc = (this.#acc << 1) | ((value >> i) & 1);
      this.#count += 1;
      if (this.#count === 8) this.#flushByte();
    }
  }
  #flushByte(): void {
    this.bytes.push(this.#acc);
    if (this.#acc === 0xff) this.bytes.push(0);
    this.#acc = 0;
    this.#count = 0;
  }
  /** Pads the last byte with 1 bits, as the standard asks. */
  end(): number[] {
    while (this.#count !== 0) this.write(1, 1);
    return this.bytes;
  }
}

function segment(marker: number, body: readonly number[]): number[] {
  const length = body.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...body];
}

/**
 * A baseline JPEG (JFIF, YCbCr, no subsampling) where every 8x8 block has one colour: `paint`
 * is sampled at each block's centre. Uniform blocks have no AC energy, so each block is its DC
 * coefficient (8 x (level - 128) under a quantisation table of ones) and an end-of-block code.
 */
export function sampleJpeg(width: number, height: number, paint: Painter): Buffer {
  const blocksX = Math.ceil(width / 8);
  const blocksY = Math.ceil(height / 8);
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  const bits = new BitWriter();
  const previous = [0, 0, 0];
  for (let by = 0; by < blocksY; by += 1) {
    for (let bx = 0; bx < blocksX; bx += 1) {
      const [r, g, b] = paint(Math.min(width - 1, bx * 8 + 4), Math.min(height - 1, by * 8 + 4));
      const ycc = [
        clamp(0.299 * r + 0.587 * g + 0.114 * b),
        clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b),
        clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b),
      ];
      ycc.forEach((level, component) => {
        const dc = 8 * (level - 128);
        const diff = dc - (previous[component] ?? 0);
        previous[component] = dc;
        const magnitude = Math.abs(diff);
        const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
        bits.write(category, 4); // DC table: categories 0-11, each a 4-bit code equal to itself
        if (category > 0) bits.write(diff > 0 ? diff : diff + (1 << category) - 1, category);
        bits.write(0, 1); // AC table: end of block is the one code, "0"
      });
    }
  }
  const dcCounts = Array.from({ length: 16 }, (_v, i) => (i === 3 ? 12 : 0));
  const acCounts = Array.from({ length: 16 }, (_v, i) => (i === 0 ? 1 : 0));
  const bytes = [
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0, ...Array.from({ length: 64 }, () => 1)]),
    ...segment(0xc0, [
      8,
      height >> 8,
      height & 0xff,
      width >> 8,
      width & 0xff,
      3,
      ...[1, 2, 3].flatMap((id) => [id, 0x11, 0]),
    ]),
    ...segment(0xc4, [0x00, ...dcCounts, ...Array.from({ length: 12 }, (_v, i) => i)]),
    ...segment(0xc4, [0x10, ...acCounts, 0x00]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
    ...bits.end(),
    0xff,
    0xd9,
  ];
  return Buffer.from(bytes);
}

/** A zip archive (deflated entries, fixed 2026-01-01 timestamps) of `files`. */
export function sampleZip(files: readonly { name: string; content: Buffer | string }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const dosTime = 0;
  const dosDate = ((2026 - 1980) << 9) | (1 << 5) | 1;
  for (const file of files) {
    const data = typeof file.content === "string" ? Buffer.from(file.content, "utf8") : file.content;
    const packed = deflateRawSync(data);
    const name = Buffer.from(file.name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const xmlEscape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

/** A minimal Word document (Office Open XML): one paragraph per line. */
export function sampleDocx(paragraphs: readonly string[]): Buffer {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`);
  return sampleZip([
    {
      name: "[Content_Types].xml",
      content:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: "_rels/.rels",
      content:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    {
      name: "word/document.xml",
      content: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body.join("")}</w:body></w:document>`,
    },
  ]);
}

/** `size` deterministic pseudo-random bytes (large attachments for the memory bench and tests). */
export function sampleBytes(size: number, seed: number): Buffer {
  const random = seededRandom(seed);
  const out = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) out.writeUInt32LE(Math.floor(random() * 0x1_0000_0000) >>> 0, i);
  for (let i = size - (size % 4); i < size; i += 1) out[i] = Math.floor(random() * 256);
  return out;
}
