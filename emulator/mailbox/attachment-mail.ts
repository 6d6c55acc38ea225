import { createHash } from "node:crypto";
import type { Identity } from "../identities.ts";
import { rfc2822Date } from "./compose.ts";
import { type Address, encodeWord, formatAddress } from "./headers.ts";
import type { Mailbox, StoredMessage } from "./mailbox.ts";
import { indexHeaders } from "./message-index.ts";
import { sampleDocx, sampleJpeg, samplePdf, samplePng, sampleZip } from "./sample-files.ts";

/** One file of a composed message. */
export interface FileSpec {
  filename: string;
  mimeType: string;
  content: Buffer | string;
  /** Set for a part the HTML shows through cid: (Content-Disposition: inline, in multipart/related). */
  contentId?: string;
}

export interface AttachmentMailInput {
  from: Address;
  to: Address;
  subject: string;
  text: string;
  html?: string;
  date: number;
  files: readonly FileSpec[];
}

const base64Lines = (bytes: Buffer) => bytes.toString("base64").replace(/.{76}(?=.)/g, "$&\r\n");

/**
 * A filename parameter as mail clients write it: quoted ASCII, or RFC 2231 (`filename*=UTF-8''`)
 * when the name has other characters, controls or quotes.
 */
function nameParam(key: "name" | "filename", filename: string): string {
  if (/^[\x20-\x7e]*$/.test(filename) && !/["\\]/.test(filename)) return `${key}="${filename}"`;
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `${key}*=UTF-8''${encoded}`;
}

function filePart(file: FileSpec): string {
  const content = typeof file.content === "string" ? Buffer.from(file.content, "utf8") : file.content;
  const disposition = file.contentId === undefined ? "attachment" : "inline";
  const head = [
    `Content-Type: ${file.mimeType}; ${nameParam("name", file.filename)}`,
    `Content-Disposition: ${disposition}; ${nameParam("filename", file.filename)}`,
  ];
  if (file.contentId !== undefined) head.push(`Content-ID: <${file.contentId}>`);
  // An attached message stays readable text (RFC 2046 allows no base64 for message/rfc822).
  if (file.mimeType === "message/rfc822") return `${head.join("\r\n")}\r\n\r\n${content.toString("latin1")}`;
  head.push("Content-Transfer-Encoding: base64");
  return `${head.join("\r\n")}\r\n\r\n${base64Lines(content)}`;
}

/**
 * A message with files: multipart/mixed of the bodies and the attachments; inline (cid:) files
 * go with the HTML in multipart/related, as mail clients send a logo in a signature.
 */
export function composeAttachmentMail(input: AttachmentMailInput): string {
  const digest = createHash("sha1")
    .update(`${input.from.address}|${input.to.address}|${input.subject}|${input.date}`)
    .digest("hex");
  const mixed = `=_mixed_${digest.slice(0, 12)}`;
  const alternative = `=_alt_${digest.slice(12, 24)}`;
  const related = `=_rel_${digest.slice(24, 36)}`;
  const inline = input.files.filter((f) => f.contentId !== undefined);
  const attached = input.files.filter((f) => f.contentId === undefined);
  const text = `Content-Type: text/plain; charset="UTF-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(Buffer.from(input.text, "utf8"))}`;
  let bodies = text;
  if (input.html !== undefined) {
    let html = `Content-Type: text/html; charset="UTF-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(Buffer.from(input.html, "utf8"))}`;
    if (inline.length > 0) {
      html = [
        `Content-Type: multipart/related; boundary="${related}"`,
        "",
        `--${related}`,
        html,
        ...inline.flatMap((file) => [`--${related}`, filePart(file)]),
        `--${related}--`,
      ].join("\r\n");
    }
    bodies = [
      `Content-Type: multipart/alternative; boundary="${alternative}"`,
      "",
      `--${alternative}`,
      text,
      `--${alternative}`,
      html,
      `--${alternative}--`,
    ].join("\r\n");
  }
  const headers = [
    `From: ${formatAddress(input.from)}`,
    `To: ${formatAddress(input.to)}`,
    `Subject: ${encodeWord(input.subject)}`,
    `Date: ${rfc2822Date(input.date)}`,
    `Message-ID: <${digest.slice(0, 24)}@${input.from.address.split("@")[1] ?? "example.com"}>`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/mixed; boundary="${mixed}"`,
  ];
  const body = [
    `--${mixed}`,
    bodies,
    ...attached.flatMap((file) => [`--${mixed}`, filePart(file)]),
    `--${mixed}--`,
    "",
  ];
  return `${headers.join("\r\n")}\r\n\r\n${body.join("\r\n")}`;
}

/** Adds a composed message to the inbox, unread. `record` false when seeding (no history entry). */
export function deliverAttachmentMail(
  mailbox: Mailbox,
  input: AttachmentMailInput,
  record = true,
): StoredMessage {
  const raw = composeAttachmentMail(input);
  return mailbox.add(
    {
      raw: () => raw,
      internalDate: input.date,
      labelIds: ["INBOX", "UNREAD", "CATEGORY_PERSONAL"],
      headers: indexHeaders(raw),
      sizeEstimate: Buffer.byteLength(raw, "utf8"),
    },
    record,
  );
}

const HOUR_MS = 60 * 60 * 1000;

/** Painters for the sample images: a gradient "photo" and a two-colour logo. */
const photo = (x: number, y: number) => [(x * 3) % 256, (y * 4) % 256, 150 + ((x + y) % 100)] as const;
const logo = (x: number, y: number) =>
  (x - 24) ** 2 + (y - 24) ** 2 < 400 ? ([37, 99, 235] as const) : ([255, 255, 255] as const);

/** The budget the analysis example points at ("Open the attached Q3 Budget.pdf"). */
export const Q3_BUDGET_FILENAME = "Q3 Budget.pdf";

/**
 * The seeded attachment mail of a demo mailbox, sent a few hours before `nowMs` by `sender`:
 * a budget PDF an action item points at, photos (PNG, JPEG), a contract (.docx), an archive
 * (.zip) and a calendar file (.ics), a newsletter with an inline logo (cid:), and a forwarded
 * message attached as .eml that carries a PDF of its own. Every file opens in its program.
 */
export function attachmentMails(identity: Identity, sender: Address, nowMs: number): AttachmentMailInput[] {
  const to = { name: identity.name, address: identity.email };
  const first = sender.name.split(" ")[0] ?? sender.name;
  const budget = samplePdf("Q3 Budget", [
    "Engineering: $212,000",
    "Marketing: $118,000",
    "Operations: $82,000",
    "Total: $412,000",
  ]);
  const agreement = samplePdf("Agreement", [
    "Signed by both parties.",
    "Effective from the first of next month.",
  ]);
  const forwarded = composeAttachmentMail({
    from: { name: "Morgan Legal", address: "contracts@morganlegal.example" },
    to: sender,
    subject: "Signed agreement",
    text: "Hello,\n\nPlease find the signed agreement attached.\n\nMorgan Legal",
    date: nowMs - 30 * HOUR_MS,
    files: [{ filename: "Agreement.pdf", mimeType: "application/pdf", content: agreement }],
  });
  const ics = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Mailwise emulator//EN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${createHash("sha1").update(`kickoff|${identity.email}`).digest("hex").slice(0, 16)}@emulator`,
    "DTSTAMP:20260101T090000Z",
    "DTSTART:20260301T150000Z",
    "DTEND:20260301T160000Z",
    "SUMMARY:Project kickoff",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
  return [
    {
      from: sender,
      to,
      subject: "Q3 budget for review",
      text: `Hi ${identity.givenName},\n\nI've attached the Q3 Budget.pdf with the numbers for next quarter. Please review it before Thursday's meeting and tell me if anything looks off.\n\nThanks,\n${first}`,
      date: nowMs - 2 * HOUR_MS,
      files: [{ filename: Q3_BUDGET_FILENAME, mimeType: "application/pdf", content: budget }],
    },
    {
      from: sender,
      to,
      subject: "Photos from the offsite",
      text: `Hi ${identity.givenName},\n\nHere are two photos from the offsite: the team and the venue.\n\n${first}`,
      date: nowMs - 3 * HOUR_MS,
      files: [
        { filename: "team-photo.png", mimeType: "image/png", content: samplePng(160, 120, photo) },
        { filename: "venue.jpg", mimeType: "image/jpeg", content: sampleJpeg(160, 120, photo) },
      ],
    },
    {
      from: sender,
      to,
      subject: "Contract draft, project files and the kickoff",
      text: `Hi ${identity.givenName},\n\nThe contract draft, the project files and the kickoff in your calendar format are attached.\n\n${first}`,
      date: nowMs - 4 * HOUR_MS,
      files: [
        {
          filename: "Contract draft.docx",
          mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
          content: sampleDocx(["Contract draft", `Between Northwind and ${identity.name}.`]),
        },
        {
          filename: "project-files.zip",
          mimeType: "application/zip",
          content: sampleZip([
            { name: "README.txt", content: "Project files for the kickoff.\n" },
            { name: "plan/milestones.csv", content: "milestone,date\nkickoff,2026-03-01\nbeta,2026-05-01\n" },
          ]),
        },
        { filename: "kickoff.ics", mimeType: "text/calendar", content: ics },
      ],
    },
    {
      from: { name: "Northwind News", address: "news@northwind.example" },
      to,
      subject: "Northwind monthly: what's new",
      text: "Northwind monthly\n\nThree things we shipped this month.",
      html: '<div><img src="cid:logo@northwind.example" alt="Northwind" width="48" height="48"><h1>Northwind monthly</h1><p>Three things we shipped this month.</p></div>',
      date: nowMs - 5 * HOUR_MS,
      files: [
        {
          filename: "logo.png",
          mimeType: "image/png",
          content: samplePng(48, 48, logo),
          contentId: "logo@northwind.example",
        },
      ],
    },
    {
      from: sender,
      to,
      subject: "Fwd: Signed agreement",
      text: `Hi ${identity.givenName},\n\nForwarding the signed agreement from Morgan Legal, with its PDF.\n\n${first}`,
      date: nowMs - 6 * HOUR_MS,
      files: [{ filename: "Signed agreement.eml", mimeType: "message/rfc822", content: forwarded }],
    },
  ];
}

/** Seeds a demo mailbox with attachmentMails (no history entries). */
export function seedAttachmentMail(
  mailbox: Mailbox,
  identity: Identity,
  sender: Address,
  nowMs: number,
): void {
  for (const input of attachmentMails(identity, sender, nowMs)) deliverAttachmentMail(mailbox, input, false);
}
