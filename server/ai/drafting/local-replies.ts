import type { AgentPreferences, ResponseStyle, Tone } from "../../../contract/ai.ts";
import { ruleTable } from "../local/rules/rule-table.ts";
import { cleanBody } from "../local/text-cleaning.ts";

/**
 * The local drafting engine: template replies grounded in the email (the sender's first name,
 * its questions, requests and deadlines) in the agent's tone, response style and signature.
 * Deterministic, so tests can pin its output.
 */

export interface ReplySource {
  senderName: string;
  senderAddress: string;
  subject: string;
  /** Plain text of the email. */
  body: string;
  /** From the local analysis: key points already capped at 3. */
  keyPoints: readonly string[];
}

export interface LearnedStyle {
  greeting?: string;
  signOff?: string;
}

const rules = ruleTable("drafting");

const GREETING: Record<Tone, (name: string) => string> = {
  Professional: (n) => `Hello ${n},`,
  Friendly: (n) => `Hi ${n},`,
  Casual: (n) => `Hey ${n},`,
  Formal: (n) => `Dear ${n},`,
  Warm: (n) => `Hi ${n},`,
};

const CLOSING: Record<Tone, string> = {
  Professional: "Best regards,",
  Friendly: "Thanks,",
  Casual: "Cheers,",
  Formal: "Kind regards,",
  Warm: "Warm regards,",
};

const THANKS: Record<Tone, string> = {
  Professional: "Thank you for your email",
  Friendly: "Thanks so much for your message",
  Casual: "Thanks for the note",
  Formal: "Thank you for your correspondence",
  Warm: "Thank you so much for getting in touch",
};

/** The first name to greet: display name, else the address's local part, else a neutral word. */
export function firstNameOf(name: string, address: string): string {
  const cleaned = name.replace(/["']/g, "").trim();
  const fromName = cleaned.includes(",") ? cleaned.split(",")[1]?.trim() : cleaned.split(/\s+/)[0];
  if (
    fromName &&
    /^[\p{L}][\p{L}'-]*$/u.test(fromName) &&
    !/^(no-?reply|info|support|team)$/i.test(fromName)
  ) {
    return fromName.charAt(0).toUpperCase() + fromName.slice(1);
  }
  const local = address.split("@")[0] ?? "";
  const part = local.split(/[._-]/)[0] ?? "";
  if (/^[a-z]{2,}$/i.test(part) && !/^(no|noreply|info|support|team|hello|contact)$/i.test(part)) {
    return part.charAt(0).toUpperCase() + part.slice(1).toLowerCase();
  }
  return "there";
}
/**
 * A sentence that starts without the previous one having ended: a lower-case word or a digit, then
 * an opener that only ever begins a sentence (rules/drafting.rules).
 */
const RUN_ON = rules.regex("run-on-opener");

/**
 * The sender's own sentences: quoted replies, forwards, signatures and boilerplate cut (the
 * analyzer's cleaning), a line break before a capital counted as a sentence end, so a name line
 * never runs into the request under it, and a run-on split where the next sentence begins.
 */
function sentences(text: string): string[] {
  return cleanBody(text)
    .text.split(/\n\s*\n|\n(?=\s*[A-Z])/)
    .flatMap((chunk) => chunk.replace(/\s+/g, " ").split(/(?<=[.!?])\s+/))
    .flatMap((sentence) => sentence.split(RUN_ON))
    .map((s) => s.trim())
    .filter((s) => s.length > 8 && s.length < 300);
}

// A deadline in the sender's sentence ("by Friday", "no later than").
const DEADLINE = rules.regex("deadline");
const REQUEST =
  /\b(could you|can you|would you|please|let me know|need you to|your (approval|input|feedback|thoughts))\b/i;

/** Questions, deadlines and requests of the email, at most two of each, in its own words. */
export function groundingOf(source: ReplySource) {
  const all = sentences(source.body.slice(0, 6000));
  const questions = all.filter((s) => s.endsWith("?")).slice(0, 2);
  const deadlines = all.filter((s) => DEADLINE.test(s) && !questions.includes(s)).slice(0, 2);
  const requests = all
    .filter((s) => REQUEST.test(s) && !questions.includes(s) && !deadlines.includes(s))
    .slice(0, 2);
  return { questions, deadlines, requests };
}

/** Turns "Can you send the report?" into "can you send the report" for "your question (...)". */
function quote(sentence: string, max = 90): string {
  const s = sentence.replace(/(?<![?.!])[?.!]+$/, "").trim();
  const cut = s.length > max ? `${s.slice(0, max).replace(/(?<!\s)\s+\S*$/, "")}...` : s;
  return `"${cut}"`;
}

/**
 * The subject as a topic: without reply and forward prefixes and without a mailing list's tag
 * ("[zzzzteana] Re: Argh!" is "Argh!"); too short to name anything, it is left out.
 */
export function cleanSubject(subject: string): string {
  let s = subject.trim();
  for (let i = 0; i < 5; i++) {
    const next = s.replace(/^\s*((re|fwd?|fw|aw|sv)\s*(?:(\[\d+\])\s*)?:\s*|\[[^\]]{1,40}\]\s*)/i, "");
    if (next === s) break;
    s = next;
  }
  return s.trim();
}

/** The subject's first sentence, for a subject that runs on ("Invoice overdue Please pay"). */
function subjectTopic(subject: string): string {
  return (cleanSubject(subject).split(RUN_ON)[0] ?? "").trim();
}

function topic(subject: string): string {
  const s = subjectTopic(subject);
  if (s.split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w)).length < 2) return "";
  return ` about "${s.length > 80 ? `${s.slice(0, 80).replace(/(?<!\s)\s+\S*$/, "")}..."` : `${s}"`}`;
}

/** A sentence as the user typed it, capitalised and closed, so the next one never runs into it. */
function asSentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?:)"']$/.test(capital) ? capital : `${capital}.`;
}

function signOff(prefs: AgentPreferences, learned: LearnedStyle): string {
  const usesDefaults = prefs.tone_preference === "Professional" && !prefs.reply_style.trim();
  const closing =
    usesDefaults && learned.signOff ? `${capital(learned.signOff)},` : CLOSING[prefs.tone_preference];
  const signature = prefs.email_signature.trim();
  return signature ? `${closing}\n${signature}` : closing;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function greeting(prefs: AgentPreferences, learned: LearnedStyle, name: string): string {
  const usesDefaults = prefs.tone_preference === "Professional" && !prefs.reply_style.trim();
  if (usesDefaults && learned.greeting) return `${capital(learned.greeting)} ${name},`;
  return GREETING[prefs.tone_preference](name);
}

/** The body paragraphs for one variant. */
function body(
  style: ResponseStyle,
  variant: 0 | 1 | 2,
  source: ReplySource,
  tone: Tone,
  g: ReturnType<typeof groundingOf>,
): string[] {
  const about = topic(source.subject);
  const opener = `${THANKS[tone]}${about}.`;
  const brief = style === "brief";
  const paragraphs: string[] = [];
  const firstQuestion = g.questions[0];
  const firstDeadline = g.deadlines[0];
  const firstRequest = g.requests[0];

  if (variant === 0) {
    // Acknowledge and commit to a considered answer.
    if (brief) {
      paragraphs.push(
        firstDeadline
          ? `Thanks for your email${about}. I have noted the timing and will get back to you before then.`
          : `Thanks for your email${about}. I will get back to you shortly.`,
      );
      return paragraphs;
    }
    paragraphs.push(opener);
    if (firstQuestion)
      paragraphs.push(
        `Regarding your question ${quote(firstQuestion)}: I am looking into it and will send you a full answer shortly.`,
      );
    else if (firstRequest)
      paragraphs.push(`I have noted your request ${quote(firstRequest)} and will take care of it.`);
    else paragraphs.push("I have read it carefully and will follow up with anything that needs my input.");
    if (firstDeadline)
      paragraphs.push(
        `I have also noted the timing (${quote(firstDeadline, 70)}) and will make sure to meet it.`,
      );
  } else if (variant === 1) {
    // Agree / confirm.
    if (brief) {
      paragraphs.push(
        firstQuestion
          ? "Yes, that works for me - thanks for checking."
          : "Sounds good, thank you - confirmed on my side.",
      );
      return paragraphs;
    }
    paragraphs.push(opener);
    paragraphs.push(
      firstQuestion
        ? `To answer ${quote(firstQuestion)}: yes, that works for me.`
        : "That all sounds good to me, and I am happy to go ahead as you describe.",
    );
    if (firstDeadline) paragraphs.push(`The timeline works for me as well.`);
  } else {
    // Ask for what is missing / propose a next step.
    if (brief) {
      paragraphs.push("Thanks - could you share a few more details so I can answer properly?");
      return paragraphs;
    }
    paragraphs.push(opener);
    paragraphs.push(
      firstQuestion
        ? `Before I answer ${quote(firstQuestion)}, could you share a bit more detail on what you need?`
        : "Could you share a few more details so I can give you a proper answer?",
    );
    if (firstDeadline)
      paragraphs.push("If the timing is tight, I am happy to set up a quick call to move things along.");
  }

  if (style === "detailed") {
    const extra = [...g.questions.slice(1), ...g.requests.slice(firstRequest && !firstQuestion ? 1 : 0)];
    for (const s of extra.slice(0, 2))
      paragraphs.push(`On ${quote(s)}: I will include this in my follow-up.`);
    const points = source.keyPoints
      .filter((k) => !extra.includes(k))
      .slice(0, 2)
      .map((k) => (k.split(RUN_ON)[0] ?? k).trim());
    if (points.length > 0)
      paragraphs.push(
        `To make sure I have understood correctly, the main points are:\n${points.map((p) => `- ${p}`).join("\n")}`,
      );
    paragraphs.push("Please let me know if I missed anything.");
  } else if (style === "friendly") {
    paragraphs.push("Hope all is well on your side!");
  }
  return paragraphs;
}

/** Up to three alternative replies in the agent's voice. */
export function draftRepliesLocally(
  source: ReplySource,
  prefs: AgentPreferences,
  style: ResponseStyle,
  learned: LearnedStyle = {},
): string[] {
  const name = firstNameOf(source.senderName, source.senderAddress);
  const g = groundingOf(source);
  const tone = prefs.tone_preference;
  return ([0, 1, 2] as const).map((variant) =>
    [greeting(prefs, learned, name), ...body(style, variant, source, tone, g), signOff(prefs, learned)].join(
      "\n\n",
    ),
  );
}

/** A greeting without a name, for mail whose recipient the compose help does not know. */
const GREETING_NO_NAME: Record<Tone, string> = {
  Professional: "Hello,",
  Friendly: "Hi,",
  Casual: "Hey,",
  Formal: "Good day,",
  Warm: "Hi there,",
};

/**
 * Compose help without an original: openings that fit the subject, or the user's draft polished.
 * Every suggestion is ready to send as it stands: no "[Name]" or "[add details]" placeholders.
 */
export function composeLocally(subject: string, draft: string, prefs: AgentPreferences): string[] {
  const tone = prefs.tone_preference;
  const topicText = subjectTopic(subject);
  // Quoted, as in replies: a subject that opens like a sentence ("Please review the contract")
  // would otherwise read as a second sentence glued into ours.
  const about = topicText ? ` about "${topicText}"` : "";
  const greet = GREETING_NO_NAME[tone];
  const close = signOff(prefs, {});
  const core = draft
    .trim()
    .split(/\n{2,}/)
    .map((para) => asSentence(para))
    .join("\n\n");
  if (core) {
    return [
      `${greet}\n\n${core}\n\n${close}`,
      `${greet}\n\nI hope you are well. ${core}\n\nPlease let me know if you have any questions.\n\n${close}`,
      `${greet}\n\n${core}\n\nThank you in advance.\n\n${close}`,
    ];
  }
  return [
    `${greet}\n\nI am writing${about}. I would be glad to hear your thoughts when you have a moment.\n\n${close}`,
    `${greet}\n\nI wanted to follow up${about}. Could you let me know where things stand?\n\n${close}`,
    `${greet}\n\nA quick note${about}: could we find a time to talk it through this week?\n\n${close}`,
  ];
}
