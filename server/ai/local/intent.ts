import { COMPLAINT_MARGIN, complaintLogOdds } from "./complaint/score.ts";
import { type EmailFeatures, NO_REPLY_NOTICE } from "./features.ts";
import { ruleTable } from "./rules/rule-table.ts";
import type { UrgencyResult } from "./urgency.ts";

const rules = ruleTable("intent");

/**
 * What the mail asks of the reader, the one thing the suggested actions and the response time
 * follow. In order of precedence:
 *   complaint     a person is unhappy with something (a refund, a damaged order, no answer)
 *   meeting       a meeting or call to set up, move or join, or an invitation
 *   deadline      something to do by a date (a password to change, a form by Friday)
 *   question      a direct question to the reader
 *   request       a request to do something
 *   notification  machine-sent notice (no-reply senders, services): nothing to answer
 *   information   a person letting the reader know something
 */
export type Intent =
  | "complaint"
  | "meeting"
  | "deadline"
  | "question"
  | "request"
  | "notification"
  | "information";

// The phrase lists are families of rules/intent.rules, each with what it catches and why.
export const COMPLAINT = rules.regex("complaint");
const GRIEVANCE = rules.regex("grievance");

/** A person is unhappy with the reader: a complaint cue or a grievance put without one. */
export function complains(text: string): boolean {
  return COMPLAINT.test(text) || GRIEVANCE.test(text);
}

const MEETING = rules.regex("meeting");
const DIARY_TIME = rules.regex("diary-time");
const MOVE = rules.regex("move");
const INVITATION = rules.regex("invitation");
const DEADLINE_TASK =
  /\b(before|by|until|no later than|deadline|due|closes?|expires?|within|lapses?|runs? out|ahead of)\b|\bno longer\b.{0,40}\bafter\b/i;
const REQUEST = rules.regex("request");
const THIRD_PARTY_COMPLAINT = rules.regex("third-party-complaint");

// "We still have not received the certificate": a chase, which with a date to meet is a deadline.
const CHASE = /\bstill (have not|haven't|not) (received|heard|got)\b/gi;

export function detectIntent(features: EmailFeatures, urgency: UrgencyResult): Intent {
  const text = `${features.subject}\n${features.text.slice(0, 3000)}`
    .replace(THIRD_PARTY_COMPLAINT, " ")
    .replace(NO_REPLY_NOTICE, " ");
  const person = !features.automated && !features.machineSender && !features.bulk;
  // Read once: the cue lists are long, and a chase's own words are the only difference.
  const complaint = person && complains(text);
  const unchased = text.replace(CHASE, " ");
  const chaseWithDate =
    urgency.deadline !== null &&
    DEADLINE_TASK.test(text) &&
    asksToAct(text) &&
    !(unchased === text ? complaint : complains(unchased));
  if (complaint && !chaseWithDate) return "complaint";
  // The meeting must be what is asked about, not a date mentioned in passing ("...before the board meeting").
  const askedAboutMeeting = features.sentences
    .slice(0, 30)
    .some((s) => MEETING.test(s.text) && (MOVE.test(s.text) || /\?\s*$/.test(s.text)));
  if (person && (askedAboutMeeting || INVITATION.test(text) || DIARY_TIME.test(text))) return "meeting";
  if (urgency.deadline && DEADLINE_TASK.test(text) && (person || !features.bulk) && asksToAct(text))
    return "deadline";
  if (!person) return "notification";
  if (urgency.question) return "question";
  // An instruction alone ("Sign in to view it") asks something only when a person writes it.
  if (REQUEST.test(text) || (IMPERATIVE.test(text) && !ROLE_ADDRESS.test(features.fromAddress)))
    return "request";
  // Complaints told without any words the rules know ("I even brought the swatch in") fell back
  // to information; a word model trained on many mailboxes' complaints reads them (decision 0048).
  if (complaintLogOdds(features.subject, features.text) >= COMPLAINT_MARGIN) return "complaint";
  return "information";
}

// Verbs a notice opens a task sentence with ("Log in to the portal and choose your plan").
const TASK_VERB = rules.phrases("task-verb").join("|");

// An imperative sentence: the task verb opens it, after an optional "Please" or "Remember to", or
// after a leading purpose or condition clause ("To keep your access, change your password").
export const IMPERATIVE = new RegExp(
  `(^|[.!?:]\\s*|(?<![.!?:\\n])\\n\\s*)((to|if|once|when|before|after)\\b[^.!?\\n]{0,80},\\s*)?((please|kindly|just|remember to|be sure to|don't forget to|do not forget to)\\s+)?(${TASK_VERB})\\b`,
  "im",
);

// Shared role mailboxes: their instructions are notices, not one person's request.
const ROLE_ADDRESS = rules.regex("role-address");
const YOU_CAN = new RegExp(`\\byou can (${TASK_VERB}|make)\\b`, "i");
const NUDGE = rules.regex("nudge");

/** A task for the reader: an imperative or a request, not just a date in a notice. */
function asksToAct(text: string): boolean {
  return (
    REQUEST.test(text) ||
    IMPERATIVE.test(text) ||
    /\b(must|need to|needs to|have to|has to|required to|make sure|action required|is due|are due|overdue|mandatory)\b/i.test(
      text,
    ) ||
    // A direction to a named party ("The court directs that the applicant's solicitors lodge the bundle").
    /\b(directs?|orders?|requires?) that\b/i.test(text) ||
    // A need with a date ("procurement needs the questionnaire back by 14/02").
    /\b(need|needs|require|requires|expect|expects)\b[^.!?\n]{0,100}\b(by|before|no later than)\b/i.test(
      text,
    ) ||
    // Something of the reader's still outstanding, or what happens if they do nothing.
    /\b(ha(s|ve) not (yet )?been|not yet) (submitted|completed|signed|returned|paid|approved)\b|\bif you (don't|do not|fail to|haven't|have not)\b/i.test(
      text,
    ) ||
    YOU_CAN.test(text) ||
    NUDGE.test(text) ||
    // What lapses unless the reader acts ("it lapses on 31 May unless the module has been completed").
    /\b(lapses?|expires?|runs? out|ends?|stops?)\b[^.!?\n]{0,60}\bunless\b/i.test(text) ||
    // An invoice or balance with a due date asks to be paid.
    /\b(invoice|balance|amount|payment)\b(?:[^.!?\n]|\.\d){0,80}\bdue\b/i.test(text)
  );
}

/**
 * The task of a deadline mail in a few words: the mail's own first instruction ("Set up the
 * Authenticator app"), else what it names ("Change your password").
 */
export function deadlineTask(text: string): string {
  const instruction = instructionOf(text);
  return instruction ?? namedTask(text);
}

// A dot inside a word ("river-tools.com", "v2.1") does not end the instruction.
export const INSTRUCTION = new RegExp(
  `(?:^|[.!?:]\\s*|(?<![.!?:\\n])\\n\\s*)(?:(?:please|kindly)\\s+)?((?:${TASK_VERB})\\b(?:[^.!?\\n]|\\.(?=\\w))*)`,
  "im",
);

/** The first instruction up to its deadline, link or clause break, at most 8 words. */
function instructionOf(text: string): string | null {
  const match = INSTRUCTION.exec(text);
  if (!match?.[1]) return null;
  const words = match[1]
    .split(
      /(?<!\s)\s+(?:before|by|until|no later than|within|at https?:|at www\.|https?:|or you|to avoid|so that)\b|[,;(]/i,
    )[0]
    ?.trim()
    .split(/\s+/);
  // "Change it", "Renew yours": the object is named elsewhere, so name the task instead.
  if (
    !words ||
    words.length < 2 ||
    words.length > 8 ||
    /^(it|them|this|that|yours|one)$/i.test(words[1] ?? "")
  )
    return null;
  const phrase = words.join(" ");
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

function namedTask(text: string): string {
  if (/\b(multi-?factor|mfa|authenticator|2fa|two-factor)\b/i.test(text))
    return "Set up multi-factor sign-in";
  if (/\bpassword\b/i.test(text)) return "Change your password through your usual sign-in page";
  if (/\b(timesheets?|hours)\b/i.test(text)) return "Enter your hours";
  if (/\bexpenses?\b/i.test(text)) return "Submit your expenses";
  if (/\b(training|course|module)\b/i.test(text)) return "Complete the training";
  if (/\b(enrol+|enroll|enrolment|enrollment)\b/i.test(text)) return "Enroll";
  if (/\b(register|registration)\b/i.test(text)) return "Register";
  if (/\b(install|updates?)\b/i.test(text) && /\b(laptop|computer|device|software)\b/i.test(text))
    return "Install the updates";
  if (/\b(survey|form|fill)\b/i.test(text)) return "Fill in the form";
  if (/\b(renew|renewal)\b/i.test(text)) return "Renew it";
  if (/\bapprov/i.test(text)) return "Approve it";
  if (/\b(sign|signature)\b/i.test(text)) return "Sign it";
  if (/\b(pay|paid|invoice|payment|rent|fees?)\b/i.test(text)) return "Pay it";
  if (/\b(book|reserve)\b/i.test(text)) return "Make the booking";
  if (/\b(direct deposit|bank details|payroll)\b/i.test(text))
    return "Update your details in the HR system yourself";
  return "Do what is asked";
}

/** "before February 28" for "by February 28", "within 3 days" for "in 3 days". */
export function byDeadline(text: string | undefined): string {
  if (!text) return "before the deadline";
  const span = /^(in|within)(?:\s+(?=\S)|\s+(?=[^\S\n\r\u2028\u2029]$))(.+)$/i.exec(text);
  if (span) return `within ${span[2]}`;
  return `before ${text.replace(/^(by|before|on|until|till|no later than|due)\s+/i, "")}`;
}
