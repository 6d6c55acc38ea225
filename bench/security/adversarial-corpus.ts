import type { gmail_v1 } from "@googleapis/gmail";
import type { Message } from "@microsoft/microsoft-graph-types";

/**
 * Adversarial mail for the bounded-CPU benchmark (issue 34, item 1): everything in it is what a
 * sender controls. Each mail is given the way a provider hands it to us (Gmail's `format=full`
 * payload tree, Graph's message JSON), and invitations as .ics text, so the benchmark runs the
 * server's real paths on it.
 */

export type AdversarialMail =
  | { name: string; kind: "gmail"; message: gmail_v1.Schema$Message }
  | { name: string; kind: "graph"; message: Message }
  | { name: string; kind: "ics"; text: string };

const MB = 1_000_000;
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const repeatTo = (unit: string, length: number) =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const HEADERS = [
  { name: "From", value: "Priya Shah <priya@example.com>" },
  { name: "To", value: "alex@example.com" },
  { name: "Subject", value: "Quarterly numbers" },
  { name: "Message-ID", value: "<adversarial@example.com>" },
];

function gmail(
  name: string,
  payload: gmail_v1.Schema$MessagePart,
  headers: gmail_v1.Schema$MessagePartHeader[] = HEADERS,
): AdversarialMail {
  return {
    name,
    kind: "gmail",
    message: {
      id: name,
      threadId: name,
      labelIds: ["INBOX", "UNREAD"],
      snippet: "",
      internalDate: "1796040000000",
      payload: { ...payload, headers: [...headers, ...(payload.headers ?? [])] },
    },
  };
}

const textPart = (text: string, mimeType = "text/plain"): gmail_v1.Schema$MessagePart => ({
  mimeType,
  headers: [{ name: "Content-Type", value: `${mimeType}; charset="UTF-8"` }],
  body: { size: Buffer.byteLength(text), data: b64(text) },
});

function graphHtml(name: string, html: string): AdversarialMail {
  return {
    name,
    kind: "graph",
    message: {
      id: name,
      conversationId: name,
      subject: "Quarterly numbers",
      from: { emailAddress: { name: "Priya Shah", address: "priya@example.com" } },
      toRecipients: [{ emailAddress: { address: "alex@example.com" } }],
      body: { contentType: "html", content: html },
      receivedDateTime: "2026-12-01T10:00:00Z",
      parentFolderId: "inbox",
    },
  };
}

/** Sentences of plain business prose, to a length: a big body that is not one repeated char. */
function prose(length: number): string {
  const sentences = [
    "Please send the signed contract by Friday.",
    "The invoice for November is attached, payment is due in 30 days.",
    "Can we meet on Tuesday at 10:00 to go through the plan?",
    "Thanks for your help with the launch, the team did great work.",
    "Call me on +44 20 7946 0958 if anything is unclear.",
  ];
  let out = "";
  for (let i = 0; out.length < length; i += 1)
    out += `${sentences[i % sentences.length]} ${i % 7 === 0 ? "\n\n" : ""}`;
  return out.slice(0, length);
}

/** A VTIMEZONE whose every block changes offset by `rule`, and an event placed in it. */
function hostileZone(rule: string): string {
  return [
    "BEGIN:VCALENDAR",
    "METHOD:REQUEST",
    "BEGIN:VTIMEZONE",
    "TZID:Trap",
    "BEGIN:STANDARD",
    "DTSTART:20000101T000000",
    `RRULE:${rule}`,
    "TZOFFSETFROM:+0200",
    "TZOFFSETTO:+0100",
    "END:STANDARD",
    "BEGIN:DAYLIGHT",
    "DTSTART:20000101T003000",
    `RRULE:${rule}`,
    "TZOFFSETFROM:+0100",
    "TZOFFSETTO:+0200",
    "END:DAYLIGHT",
    "END:VTIMEZONE",
    "BEGIN:VEVENT",
    "UID:trap@example.com",
    "DTSTART;TZID=Trap:20261210T100000",
    "DTEND;TZID=Trap:20261210T110000",
    "SUMMARY:Trap",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

/** Lines repeated up to the invitation size cap (256 KB), inside a calendar. */
function bigCalendar(prefix: string[], unit: string[], suffix: string[]): string {
  const body: string[] = [];
  let bytes = 0;
  while (bytes < 250_000) {
    body.push(...unit);
    bytes += unit.join("\r\n").length + 2;
  }
  return ["BEGIN:VCALENDAR", ...prefix, ...body, ...suffix, "END:VCALENDAR", ""].join("\r\n");
}

/** Payload nested `depth` multiparts deep, with a text part at the bottom. */
function nestedMultipart(depth: number): gmail_v1.Schema$MessagePart {
  let part: gmail_v1.Schema$MessagePart = textPart("deep text");
  for (let i = 0; i < depth; i += 1) part = { mimeType: "multipart/mixed", parts: [part] };
  return part;
}

/**
 * Ordinary mail for the warm-up: a plain text letter and a newsletter in HTML (paragraphs, links,
 * a table) through both providers, so that the JIT has seen each code path once, as in a server
 * that has synced any mail at all, and the figures are the adversarial shapes' own cost.
 */
export function ordinaryMails(): AdversarialMail[] {
  const item = (i: number) =>
    `<p>Story ${i}: ${prose(300)} <a href="https://news.example.com/story/${i}?utm=mail">Read more</a></p>`;
  const table = `<table>${Array.from({ length: 50 }, (_, i) => `<tr><td>Row ${i}</td><td>${i * 3}</td></tr>`).join("")}</table>`;
  const newsletter = `<html><body><h1>Weekly news</h1>${Array.from({ length: 200 }, (_, i) => item(i)).join("")}${table}</body></html>`;
  return [
    gmail("ordinary: letter", textPart(prose(5_000))),
    gmail("ordinary: newsletter (Gmail)", textPart(newsletter, "text/html")),
    graphHtml("ordinary: newsletter (Graph)", newsletter),
  ];
}

export function adversarialMails(): AdversarialMail[] {
  const mails: AdversarialMail[] = [];
  const repeated: [string, string][] = [
    ["'a'", "a"],
    ["spaces", " "],
    ["'>'", ">"],
    ["'-'", "-"],
    ["'='", "="],
    ["digits", "0123456789"],
    ["'<div>' as text", "<div>"],
    ["newlines", "\n"],
    ["'.'", "."],
    ["'!'", "!"],
    ["'$'", "$"],
    ["'@'", "@"],
    ["'http://'", "http://"],
    ["'a.'", "a."],
    ["'a '", "a "],
    ["'> ' lines", "> \n"],
  ];
  for (const [label, unit] of repeated) {
    mails.push(gmail(`text: 100k ${label}`, textPart(repeatTo(unit, 100_000))));
  }
  for (const [label, unit] of repeated.slice(0, 8)) {
    mails.push(gmail(`text: 1 MB ${label}`, textPart(repeatTo(unit, MB))));
  }
  mails.push(gmail("text: 1 MB prose", textPart(prose(MB))));
  mails.push(gmail("text: 1 MB one word per line", textPart(repeatTo("word\n", MB))));
  // Quotes nested ever deeper: line i carries i '>' (about 500 KB), and one line of 100k '> '.
  const deepQuotes = Array.from({ length: 1000 }, (_, i) => `${"> ".repeat(i)}reply ${i}`).join("\n");
  mails.push(gmail("text: quotes nested 1,000 deep", textPart(deepQuotes)));
  mails.push(gmail("text: one line of 100k '> '", textPart(`${"> ".repeat(50_000)}hi`)));

  // HTML, through Gmail (HTML-only mail gets its text derived) and through Graph.
  const htmls: [string, string][] = [
    ["1 MB nested <div>", `${"<div>".repeat(100_000)}deep${"</div>".repeat(100_000)}`.slice(0, MB)],
    ["100k unclosed <b>", `<p>Intro</p>${"<b>".repeat(100_000)}`],
    ["1 MB nested <blockquote>", "<blockquote>".repeat(MB / 12)],
    ["100k links", '<a href="https://example.com/x?y=1">click</a> '.repeat(20_000)],
    ["1 MB attribute", `<p title="${"x".repeat(MB)}">hi</p>`],
    ["100k table cells", `<table><tr>${"<td>1</td>".repeat(100_000)}</tr></table>`],
    ["1 MB comment-like", "<!--".repeat(MB / 4)],
    ["100k '<'", "<".repeat(100_000)],
    ["1 MB prose in <p>", `<p>${prose(MB)}</p>`],
  ];
  for (const [label, html] of htmls) {
    mails.push(gmail(`html (Gmail): ${label}`, textPart(html, "text/html")));
    mails.push(graphHtml(`html (Graph): ${label}`, html));
  }

  // Multipart trees as Gmail would serve them.
  mails.push(gmail("multipart: nested 10,000 deep", nestedMultipart(10_000)));
  mails.push(
    gmail("multipart: 100k sibling parts", {
      mimeType: "multipart/mixed",
      parts: Array.from({ length: 100_000 }, () => textPart("x")),
    }),
  );
  mails.push(
    gmail("multipart: 100k attachments", {
      mimeType: "multipart/mixed",
      parts: [
        textPart("See attached."),
        ...Array.from({ length: 100_000 }, (_, i) => ({
          mimeType: "application/octet-stream",
          filename: `file${i}.exe`,
          body: { size: 10, attachmentId: `a${i}` },
        })),
      ],
    }),
  );

  // Header lines of 1 MB.
  const long = (name: string, value: string, label = name) =>
    gmail(`header: 1 MB ${label}`, textPart("Short body."), [
      ...HEADERS.filter((h) => h.name !== name),
      { name, value },
    ]);
  mails.push(long("Subject", repeatTo("Urgent invoice ", MB)));
  mails.push(long("From", `${repeatTo("a", MB)} <priya@example.com>`));
  mails.push(long("To", repeatTo("alex@example.com, ", MB)));
  mails.push(long("References", repeatTo("<id@example.com> ", MB)));
  mails.push(long("Authentication-Results", repeatTo("spf=pass; dkim=fail; ", MB)));
  mails.push(long("List-Unsubscribe", repeatTo("<https://example.com/u>, ", MB)));
  mails.push(long("Subject", repeatTo("=?UTF-8?B?SGVsbG8=?= ", MB), "Subject of encoded words"));

  // Invitations.
  for (const rule of [
    "FREQ=HOURLY",
    "FREQ=MINUTELY",
    "FREQ=SECONDLY",
    "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
  ]) {
    mails.push({ name: `ics: zone with ${rule}`, kind: "ics", text: hostileZone(rule) });
  }
  mails.push({
    name: "ics: 256 KB of zone blocks",
    kind: "ics",
    text: bigCalendar(
      ["BEGIN:VTIMEZONE", "TZID:Trap"],
      [
        "BEGIN:DAYLIGHT",
        "DTSTART:16010101T020000",
        "TZOFFSETFROM:+0100",
        "TZOFFSETTO:+0200",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
        "END:DAYLIGHT",
      ],
      ["END:VTIMEZONE", "BEGIN:VEVENT", "DTSTART;TZID=Trap:20261210T100000", "END:VEVENT"],
    ),
  });
  mails.push({
    name: "ics: 256 KB of events with huge COUNT",
    kind: "ics",
    text: bigCalendar(
      [],
      ["BEGIN:VEVENT", "DTSTART:20261210T100000Z", "RRULE:FREQ=SECONDLY;COUNT=999999999", "END:VEVENT"],
      [],
    ),
  });
  mails.push({
    name: "ics: 256 KB of nested components",
    kind: "ics",
    text: bigCalendar([], ["BEGIN:VEVENT"], []),
  });
  mails.push({
    name: "ics: 256 KB long line",
    kind: "ics",
    text: bigCalendar(
      ["BEGIN:VEVENT", "DTSTART:20261210T100000Z"],
      [`DESCRIPTION:${"x".repeat(10_000)}`],
      ["END:VEVENT"],
    ),
  });
  return mails;
}
