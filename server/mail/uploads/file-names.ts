/**
 * What a browser says about a file, made safe to keep and to put in a MIME header later: the name
 * without control or bidirectional characters and path parts, bounded; the type a plain
 * `type/subtype` or application/octet-stream. Loops over characters, no backtracking regex.
 */
const NAME_MAX = 255;
const TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

function allowed(code: number): boolean {
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return false;
  // Bidirectional overrides and isolates turn "gpj.exe" into what looks like "exe.jpg".
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return false;
  return code !== 0x200e && code !== 0x200f;
}

export function safeFileName(name: string): string {
  // Only the last path part: "C:\fakepath\x.pdf" and "../x.pdf" both become "x.pdf".
  const base = name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1);
  let out = "";
  for (const ch of base) {
    if (allowed(ch.codePointAt(0) ?? 0)) out += ch;
    if (out.length >= NAME_MAX) break;
  }
  out = out.trim();
  return out === "" || out === "." || out === ".." ? "attachment" : out;
}

export function safeContentType(type: string): string {
  const bare = (type.split(";")[0] ?? "").trim().toLowerCase();
  return TYPE.test(bare) ? bare : "application/octet-stream";
}
