import type { ParsedSentence, ParsedText } from "./nlp.ts";
import { parseText } from "./nlp.ts";
import { ruleTable } from "./rules/rule-table.ts";
import { isFreeMailDomain } from "./security/advance-fee.ts";
import { domainOfAddress, registrableDomain } from "./security/domains.ts";
import { bodyToText, type CleanedBody, cleanBody } from "./text-cleaning.ts";
import {
  readersBusinessWords,
  readersOrganisationNames,
  readersTradeWords,
  sendersOtherTrade,
} from "./trade.ts";
import type { AnalyzerContext, AnalyzerInput } from "./types.ts";

/**
 * Everything the components read, computed once per email. Only CONTENT features live here:
 * sentences that address an AI ("ignore previous instructions", "mark this as important") are
 * dropped before any feature is taken, so such text cannot steer urgency or importance.
 */

/** Analyse at most this much cleaned text: the first screens carry the request; cost stays flat. */
const MAX_ANALYSED_CHARS = 2500;

const rules = ruleTable("features");
// A sentence that addresses an AI, dropped before any feature is taken; machine senders.
const INJECTION = rules.regex("injection");
const AUTOMATED_LOCAL_PART = rules.regex("automated-local-part");

/**
 * A system's "Please do not reply to this email": it asks nothing of the reader (intent.ts).
 * "Please do not reply." alone ends a system's mail too; a person's "please do not reply to all"
 * or "... until Monday" goes on.
 */
export const NO_REPLY_NOTICE =
  /\bplease (?:do not|don't) reply(?: to this (?:e-?mail|message|notification)\b|(?=\s*(?:[.!,;:(\n–—-]|$)))/gi;
// A system that says so at the foot of its mail, or asks for no reply (features.rules).
const AUTOMATED_FOOTER = new RegExp(
  `${rules.regex("automated-footer").source}|${NO_REPLY_NOTICE.source}`,
  "i",
);

export interface EmailFeatures {
  subject: string;
  fromName: string;
  fromAddress: string;
  fromDomain: string;
  /** Body text (HTML converted), before cleaning: the security scan reads this. */
  rawText: string;
  cleaned: CleanedBody;
  /** Cleaned text with instruction-like sentences removed, capped. */
  text: string;
  parsed: ParsedText;
  /** Sentences of `text` (wink) without the injection ones. */
  sentences: ParsedSentence[];
  injectionAttempt: boolean;
  /** Mailing list or bulk sender (List-Id, List-Unsubscribe, Precedence: bulk/list). */
  bulk: boolean;
  /** Delivered by a mailing-list server (List-Id, Precedence: list, a list's subject tag). */
  listServer: boolean;
  /** The list headers name the sender's own domain: a publisher's newsletter, not a relayed post. */
  publisherList: boolean;
  /** Machine-sent (noreply-style address, Auto-Submitted). */
  automated: boolean;
  /** A generated sender address (tracking ids, long digit runs): bulk mailers, not people. */
  machineSender: boolean;
  /** HTML body without a plain-text part. */
  htmlOnly: boolean;
  isVip: boolean;
  isKnownContact: boolean;
  /** The sender writes from the user's own organisation's domain (free-mail providers aside). */
  fromOwnOrganisation: boolean;
  /** The sender's own words name the reader's organisation ("three children at Ashgrove"). */
  namesReadersOrganisation: boolean;
  /** The sender's domain names a trade the reader is not in: a provider or club of private life. */
  fromOtherTrade: boolean;
  /** Private-life words that are the reader's trade (trade.ts); null when their domain names none. */
  tradeWords: RegExp | null;
  /** What the reader's business domain says it deals in ("pianos", "dairy"); global; null when none. */
  businessWords: RegExp | null;
  /** The body opens with the first name of the user's address ("Hi Robin," for robin.okafor@...). */
  greetsReaderByName: boolean;
  /** The user is in To (not only Cc/Bcc or a list). */
  addressedDirectly: boolean;
  isReply: boolean;
  hasListUnsubscribe: boolean;
  now: Date;
}

function matchesVip(address: string, domain: string, vips: readonly string[]): boolean {
  const lower = address.toLowerCase();
  return vips.some((v) => {
    const vip = v.trim().toLowerCase();
    if (!vip) return false;
    if (vip.includes("@")) return vip === lower;
    return domain === vip || domain.endsWith(`.${vip}`);
  });
}

/** Whether the first line of the body names the reader by the first part of one of their addresses. */
function greetsByName(rawText: string, userAddresses: readonly string[]): boolean {
  const opening = (rawText.trimStart().split("\n", 1)[0] ?? "").slice(0, 80).toLowerCase();
  return userAddresses.some((address) => {
    const first = address.split("@")[0]?.split(/[._+-]/)[0] ?? "";
    return first.length >= 3 && /^[a-z]+$/.test(first) && new RegExp(`\\b${first}\\b`).test(opening);
  });
}

/** The text names one of the organisations, as one word or spaced out ("The Velvet Room" for velvetroom). */
function namesOrganisation(text: string, names: readonly string[]): boolean {
  if (names.length === 0) return false;
  // "Corbridge & Lowe" for corbridgeandlowe.com.
  const squashed = text
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[\s'’-]+/g, "");
  return names.some((name) => new RegExp(`\\b${name}\\b`, "i").test(text) || squashed.includes(name));
}

// Mailboxes no person answers, and display names of a team or a firm ("Ridgeway Helpdesk").
const NO_PERSON_MAILBOX = rules.regex("no-person-mailbox");
const ORGANISATION_WORD = rules.regex("organisation-word");

/**
 * A person behind a role mailbox signs with the name it shows ("Karen Moss <orders@mill.example>"
 * ending "Karen"): their mail is a person's, not a system's.
 */
function signedBySender(rawText: string, fromName: string, localPart: string): boolean {
  const name = fromName.trim();
  const words = name.split(/\s+/);
  const first = words[0] ?? "";
  if (
    NO_PERSON_MAILBOX.test(localPart) ||
    words.length < 2 ||
    !/^\p{Lu}\p{Ll}+$/u.test(first) ||
    ORGANISATION_WORD.test(name)
  )
    return false;
  return rawText
    .slice(0, 4000)
    .split("\n")
    .some((line) => {
      const l = line
        .trim()
        .replace(/[,.]$/, "")
        .replace(/(?<!\s)\s+x{1,3}$/i, "");
      // A name and a short title, not a firm's legal line ("Brightside Energy Ltd, PO Box 4410").
      return (
        l === first ||
        l === name ||
        (`${l} `.startsWith(`${name} `) &&
          l.length <= name.length + 25 &&
          !/\d|\b(ltd|limited|plc|inc|llc)\b/i.test(l))
      );
    });
}

export function extractFeatures(input: AnalyzerInput, context: AnalyzerContext): EmailFeatures {
  const fromAddress = (input.from.address ?? "").toLowerCase();
  const fromDomain = domainOfAddress(fromAddress);
  const rawText = bodyToText(input.bodyText, input.bodyHtml, input.snippet ?? "");
  const cleaned = cleanBody(rawText.slice(0, 20_000), input.from.name ?? "", input.from.address ?? "");
  const capped = cleaned.text.slice(0, MAX_ANALYSED_CHARS);
  const parsedAll = parseText(capped);
  const sentences = parsedAll.sentences.filter((s) => !INJECTION.test(s.text));
  const injectionAttempt = sentences.length !== parsedAll.sentences.length || INJECTION.test(input.subject);
  const text = injectionAttempt ? sentences.map((s) => s.text).join(" ") : capped;
  const headers = input.headers ?? {};
  const precedence = (headers.precedence ?? "").toLowerCase();
  const bulk =
    Boolean(headers.listId) || Boolean(headers.listUnsubscribe) || /bulk|list|junk/.test(precedence);
  const localPart = fromAddress.split("@")[0] ?? "";
  const automated =
    (AUTOMATED_LOCAL_PART.test(localPart) && !signedBySender(rawText, input.from.name ?? "", localPart)) ||
    Boolean(headers.autoSubmitted && !/^no$/i.test(headers.autoSubmitted.trim())) ||
    AUTOMATED_FOOTER.test(rawText.slice(-1500));
  const user = (context.userAddresses ?? []).map((a) => a.toLowerCase());
  const addressedDirectly =
    user.length === 0 ? !bulk : (input.to ?? []).some((t) => user.includes((t.address ?? "").toLowerCase()));
  return {
    subject: (injectionAttempt ? input.subject.replace(INJECTION, " ") : input.subject).slice(0, 500),
    fromName: input.from.name ?? "",
    fromAddress,
    fromDomain,
    rawText,
    cleaned,
    text,
    parsed: injectionAttempt ? { sentences, sentiment: parsedAll.sentiment } : parsedAll,
    sentences,
    injectionAttempt,
    bulk,
    listServer:
      Boolean(headers.listId) ||
      /\blist\b/.test(precedence) ||
      /^\s*((re|fwd?|aw)\s*:\s*)*\[[^\]]{2,30}\]/i.test(input.subject),
    publisherList:
      fromDomain !== "" &&
      `${headers.listId ?? ""} ${headers.listUnsubscribe ?? ""}`
        .toLowerCase()
        .includes(registrableDomain(fromDomain)),
    automated,
    machineSender: /#|\d{5,}|[a-z0-9]{24,}|^[a-z]?\d+[.-]\d+/i.test(localPart) || localPart.length > 30,
    htmlOnly: !input.bodyText?.trim() && Boolean(input.bodyHtml),
    isVip: matchesVip(fromAddress, fromDomain, context.vipContacts ?? []),
    isKnownContact: context.isKnownContact === true,
    addressedDirectly,
    greetsReaderByName: greetsByName(rawText, user),
    tradeWords: readersTradeWords(user),
    businessWords: readersBusinessWords(user),
    fromOtherTrade: sendersOtherTrade(fromDomain, user),
    namesReadersOrganisation: namesOrganisation(`${input.subject}\n${text}`, readersOrganisationNames(user)),
    fromOwnOrganisation:
      fromDomain !== "" &&
      !isFreeMailDomain(registrableDomain(fromDomain)) &&
      user.some((a) => registrableDomain(domainOfAddress(a)) === registrableDomain(fromDomain)),
    isReply: /^\s*(re|aw|sv)\s*:/i.test(input.subject) || Boolean(headers.inReplyTo),
    hasListUnsubscribe: Boolean(headers.listUnsubscribe),
    now: context.now ?? input.receivedAt ?? new Date(0),
  };
}
