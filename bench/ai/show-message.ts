/**
 * Prints corpus messages for hand labelling: the headers that matter (sender, recipients, subject,
 * list headers) and the start of the decoded body. It shows only the message, never any analyzer
 * or classifier output, so labels written from it are blind.
 * Run: npx tsx bench/ai/show-message.ts heldout [start] [count]   (the held-out sample, by position)
 *      npx tsx bench/ai/show-message.ts <group>/<file> ...         (named messages)
 */
import PostalMime from "postal-mime";
import { type CorpusMessage, corpusIndex, readRaw } from "./corpus.ts";
import { heldOutSample } from "./sample.ts";

const SHOWN_HEADERS = [
  "from",
  "sender",
  "reply-to",
  "to",
  "cc",
  "subject",
  "date",
  "list-id",
  "list-unsubscribe",
  "list-post",
  "mailing-list",
  "x-mailing-list",
  "x-beenthere",
  "precedence",
  "auto-submitted",
  "in-reply-to",
  "x-mailer",
];

function stripHtml(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<a\s[^>]*href=["']?([^"' >]+)[^>]*>/gi, " [link $1] ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n");
}

async function show(dir: string, message: CorpusMessage, bodyLines: number): Promise<void> {
  const raw = readRaw(dir, message);
  const email = await PostalMime.parse(raw);
  const out = [`===== ${message.group}/${message.id}`];
  for (const name of SHOWN_HEADERS) {
    for (const h of email.headers.filter((x) => x.key.toLowerCase() === name)) {
      out.push(`${name}: ${h.value.replace(/\s+/g, " ").slice(0, 200)}`);
    }
  }
  const attachments = (email.attachments ?? []).map((a) => `${a.filename ?? "(unnamed)"} ${a.mimeType}`);
  if (attachments.length) out.push(`attachments: ${attachments.join(", ")}`);
  const body = email.text ?? (email.html ? stripHtml(email.html) : "");
  const lines = body
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l, i, all) => l !== "" || all[i - 1] !== "");
  out.push("--- body", ...lines.slice(0, bodyLines).map((l) => l.slice(0, 160)));
  if (lines.length > bodyLines) out.push(`... (${lines.length - bodyLines} more lines)`);
  if (!email.text && email.html) {
    const links = [...email.html.matchAll(/href=["']?([^"' >]+)/gi)].map((m) => m[1]);
    if (links.length) out.push(`html links: ${[...new Set(links)].slice(0, 12).join(" ")}`);
  }
  process.stdout.write(`${out.join("\n")}\n\n`);
}

const args = process.argv.slice(2);
const lines = Number(process.env.LINES ?? 30);
if (args[0] === "heldout") {
  const { dir, messages } = heldOutSample();
  const start = Number(args[1] ?? 0);
  const count = Number(args[2] ?? messages.length);
  for (const [i, m] of messages.slice(start, start + count).entries()) {
    process.stdout.write(`#${start + i} `);
    await show(dir, m, lines);
  }
} else {
  const { dir } = corpusIndex();
  for (const arg of args) {
    const [group = "", id = ""] = arg.split("/");
    await show(dir, { group, id, path: `${group}/${id}` }, lines);
  }
}
