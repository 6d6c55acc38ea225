import { composeMessage } from "./compose.ts";
import { type Address, formatAddress } from "./headers.ts";
import type { Mailbox } from "./mailbox.ts";
import type { IndexedHeaders } from "./message-index.ts";
import { snippetOf } from "./mime.ts";
import { pick, seededRandom } from "./random.ts";

/**
 * Synthetic mail for benchmarks: up to 100,000 realistic-looking messages, identical for the same
 * seed. Message text is rebuilt from (seed, index) on every read, so a huge mailbox costs only
 * its index in memory.
 */

const FIRST = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Ava",
  "Mateo",
  "Mia",
  "Lucas",
  "Zoe",
  "Ethan",
  "Nora",
  "Ravi",
];
const LAST = [
  "Garcia",
  "Nguyen",
  "Okafor",
  "Schmidt",
  "Rossi",
  "Tanaka",
  "Silva",
  "Kowalski",
  "Haddad",
  "Brown",
];
const PERSONAL_DOMAINS = ["gmail.com", "outlook.com", "yahoo.com", "proton.me", "fastmail.com"];
const BRANDS = [
  { name: "Acme Outdoors", domain: "acme-outdoors.example" },
  { name: "Northwind Travel", domain: "northwind.example" },
  { name: "Bluebird Books", domain: "bluebird-books.example" },
  { name: "Contoso Bank", domain: "contoso-bank.example" },
  { name: "Fabrikam News", domain: "fabrikam-news.example" },
  { name: "Tailspin Fitness", domain: "tailspin.example" },
  { name: "Litware Cloud", domain: "litware.example" },
  { name: "Wingtip Deals", domain: "wingtip.example" },
];
const PERSONAL_SUBJECTS = [
  "Lunch on {day}?",
  "Re: notes from the meeting",
  "Photos from the weekend",
  "Quick question about the {thing}",
  "Can you review this by {day}?",
  "Plans for {day}",
  "Fwd: {thing} details",
];
const BULK_SUBJECTS = [
  "Your weekly {thing} digest",
  "{pct}% off everything this {day}",
  "Your order #{num} has shipped",
  "Reminder: your {thing} renews soon",
  "New sign-in to your account",
  "Your statement for {month} is ready",
  "Don't miss: {thing} picks for you",
];
const THINGS = [
  "budget",
  "trip",
  "project",
  "contract",
  "newsletter",
  "subscription",
  "invoice",
  "report",
  "garden",
];
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "weekend"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
];
const WORDS =
  "the a we you it that this for with on about next week team plan update please thanks time meeting share review idea note call today tomorrow price offer order account travel book news read more help".split(
    " ",
  );

function fill(template: string, random: () => number): string {
  return template
    .replace("{day}", pick(DAYS, random))
    .replace("{thing}", pick(THINGS, random))
    .replace("{pct}", String(10 + Math.floor(random() * 60)))
    .replace("{num}", String(100000 + Math.floor(random() * 899999)))
    .replace("{month}", pick(MONTHS, random));
}

function sentence(random: () => number): string {
  const words = Array.from({ length: 6 + Math.floor(random() * 12) }, () => pick(WORDS, random));
  const text = words.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

// Sentences come from a fixed pool: building each from words was most of the generation time.
const SENTENCES = (() => {
  const random = seededRandom(20261121);
  return Array.from({ length: 512 }, () => sentence(random));
})();

function paragraph(random: () => number): string {
  let out = pick(SENTENCES, random);
  const count = 1 + Math.floor(random() * 4);
  for (let i = 0; i < count; i += 1) out += ` ${pick(SENTENCES, random)}`;
  return out;
}

interface Generated {
  /** Built only when someone reads the message. */
  compose: () => string;
  text: string;
  labels: string[];
  headers: IndexedHeaders;
  /** Close to the composed size without composing (Gmail's own figure is an estimate too). */
  size: number;
}

function headersOf(
  from: Address,
  to: Address,
  subject: string,
  messageId: string,
  extra = "",
): IndexedHeaders {
  return {
    from: formatAddress(from),
    to: formatAddress(to),
    cc: "",
    subject,
    date: "",
    messageId,
    inReplyTo: "",
    references: "",
    listUnsubscribe: extra,
  };
}

/**
 * Which earlier message a personal message answers, when the mailbox has conversations
 * (replyShare > 0), and whether the person wrote it: its own seeded random, so the other messages
 * stay what they were without conversations.
 */
function replyOf(
  seed: number,
  index: number,
  replyShare: number,
): { parent: number; mine: boolean } | undefined {
  if (replyShare <= 0 || index === 0) return undefined;
  const random = seededRandom(((seed * 7 + 3) * 1_000_003 + index) >>> 0);
  if (random() >= replyShare) return undefined;
  const parent = index - 1 - Math.floor(random() * Math.min(index, 40));
  return { parent, mine: random() < 0.35 };
}

function generateOne(seed: number, index: number, to: Address, date: number, replyShare = 0): Generated {
  const random = seededRandom((seed * 1_000_003 + index) >>> 0);
  const bulk = random() < 0.55;
  const paragraphs = Array.from({ length: 1 + Math.floor(random() * 4) }, () => paragraph(random));
  const text = paragraphs.join("\n\n");
  const messageId = `<gen-${seed}-${index}@mailwise-generator.example>`;
  if (bulk) {
    const brand = pick(BRANDS, random);
    const subject = fill(pick(BULK_SUBJECTS, random), random);
    const oneClick = random() < 0.6;
    const category = random() < 0.6 ? "CATEGORY_PROMOTIONS" : "CATEGORY_UPDATES";
    const unsubscribe = `<mailto:unsubscribe@${brand.domain}?subject=unsubscribe>, <https://${brand.domain}/u/${seed}-${index}>`;
    const from = { name: brand.name, address: `news@${brand.domain}` };
    const compose = () => {
      const html = `<html><body><h1>${subject}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("")}<p><a href="https://${brand.domain}/unsubscribe?u=${index}">Unsubscribe</a></p></body></html>`;
      const extraHeaders: [string, string][] = [
        ["List-Unsubscribe", unsubscribe],
        ["Precedence", "bulk"],
      ];
      if (oneClick) extraHeaders.push(["List-Unsubscribe-Post", "List-Unsubscribe=One-Click"]);
      return composeMessage({ from, to: [to], subject, text, html, date, messageId, extraHeaders });
    };
    return {
      compose,
      text,
      labels: ["INBOX", category],
      headers: headersOf(from, to, subject, messageId, unsubscribe),
      size: 900 + Math.round(text.length * 2.4),
    };
  }
  const first = pick(FIRST, random);
  const last = pick(LAST, random);
  const from = {
    name: `${first} ${last}`,
    address: `${first}.${last}@${pick(PERSONAL_DOMAINS, random)}`.toLowerCase(),
  };
  const reply = replyOf(seed, index, replyShare);
  const subject = `${reply ? "Re: " : ""}${fill(pick(PERSONAL_SUBJECTS, random), random)}`;
  const body = `Hi ${to.name.split(" ")[0]},\n\n${text}\n\n${first}`;
  const inReplyTo = reply ? `<gen-${seed}-${reply.parent}@mailwise-generator.example>` : undefined;
  // The person's own replies are sent mail: from them, to the other person, not in the inbox.
  const [sender, recipient] = reply?.mine ? [to, from] : [from, to];
  const headers = { ...headersOf(sender, recipient, subject, messageId), inReplyTo: inReplyTo ?? "" };
  return {
    compose: () =>
      composeMessage({ from: sender, to: [recipient], subject, text: body, date, messageId, inReplyTo }),
    text: body,
    labels: reply?.mine ? ["SENT"] : ["INBOX", "CATEGORY_PERSONAL"],
    headers,
    size: 330 + body.length,
  };
}

export interface GenerateOptions {
  count: number;
  seed: number;
  /** Spread over this many days back from now (default 365). */
  days?: number;
  now: number;
  to: Address;
  /**
   * Share of personal messages that answer one of the 40 before them (a third of those written
   * by the person, as sent mail), so the mailbox has conversations; 0 (default) for none.
   */
  replyShare?: number;
}

export const MAX_GENERATED = 100_000;

/** Adds `count` synthetic messages, oldest first; the newest few hundred are unread. */
export function generateMessages(mailbox: Mailbox, options: GenerateOptions): number {
  const count = Math.min(Math.max(0, Math.floor(options.count)), MAX_GENERATED);
  const span = (options.days ?? 365) * 24 * 60 * 60 * 1000;
  const step = span / Math.max(1, count);
  const { seed, to } = options;
  for (let index = 0; index < count; index += 1) {
    const date = Math.round(options.now - span + step * (index + 0.5));
    const replyShare = options.replyShare ?? 0;
    const first = generateOne(seed, index, to, date, replyShare);
    const random = seededRandom((seed ^ 0x9e3779b9) + index);
    const labels = [...first.labels];
    const sent = labels.includes("SENT");
    const recent = index >= count - 300;
    if (random() < (recent ? 0.6 : 0.05) && !sent) labels.push("UNREAD");
    if (random() < 0.02) labels.push("STARRED");
    mailbox.add(
      {
        raw: () => generateOne(seed, index, to, date, replyShare).compose(),
        internalDate: date,
        labelIds: labels,
        headers: first.headers,
        sizeEstimate: first.size,
        snippet: snippetOf(first.text.slice(0, 400)),
      },
      false,
    );
  }
  return count;
}
