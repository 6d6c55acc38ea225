import type { AgentPreferences, ResponseStyle } from "../../../contract/ai.ts";
import { UNTRUSTED_RULES, untrusted } from "./untrusted.ts";

export const DRAFTING_PROMPT_VERSION = "drafting-2026-01";

/** The agent's voice, from its preferences; the same for every drafting task. */
function voice(prefs: AgentPreferences, style: ResponseStyle | undefined): string {
  const lines = [`Tone: ${prefs.tone_preference}.`];
  if (style) lines.push(`Response style: ${style}.`);
  if (prefs.reply_style.trim())
    lines.push(`The user describes their reply style as: ${JSON.stringify(prefs.reply_style.trim())}.`);
  if (prefs.forbidden_phrases.length > 0) {
    lines.push(
      `Never use these phrases: ${prefs.forbidden_phrases.map((p) => JSON.stringify(p)).join(", ")}.`,
    );
  }
  if (prefs.email_signature.trim()) lines.push("End with the signature exactly as given.");
  return lines.join("\n");
}

export function replySystem(prefs: AgentPreferences, style: ResponseStyle | undefined): string {
  return `You write email replies on behalf of the Mailwise user.
Write complete, ready-to-send replies grounded in the email: greet the sender, answer its questions and acknowledge its requests and deadlines, and close politely. Do not invent facts or commitments.
${voice(prefs, style)}
Return JSON {"responses": [...]} with up to 3 alternative replies.
${UNTRUSTED_RULES}`;
}

export function replyPrompt(
  email: { from: string; subject: string; body: string },
  signature: string,
): string {
  const sig = signature.trim() ? `\nSignature:\n${signature.trim()}\n` : "";
  return `Write replies to the email below.${sig}\n${untrusted("EMAIL", `From: ${email.from}\nSubject: ${email.subject}\n\n${email.body.slice(0, 8000)}`)}`;
}

export function composeSystem(prefs: AgentPreferences): string {
  return `You help the Mailwise user compose an email. Suggest up to 3 complete message bodies that fit the subject, the draft so far and, when given, the message being answered.
${voice(prefs, undefined)}
Return JSON {"suggestions": [...]}.
${UNTRUSTED_RULES}`;
}

export function composePrompt(input: { subject: string; body: string; replyTo: string }): string {
  const parts = [untrusted("SUBJECT", input.subject), untrusted("DRAFT", input.body)];
  if (input.replyTo.trim()) parts.push(untrusted("ORIGINAL", input.replyTo.slice(0, 8000)));
  return `Suggest message bodies.\n${parts.join("\n")}`;
}

export function improveSystem(prefs: AgentPreferences): string {
  return `You edit the Mailwise user's email text: fix spelling, grammar, capitalisation and punctuation, remove filler words, and keep the meaning, facts and language. Do not add content.
${voice(prefs, undefined)}
Return JSON {"improvedText": "..."}.
${UNTRUSTED_RULES}`;
}

export function improvePrompt(text: string): string {
  return `Improve the text below.\n${untrusted("TEXT", text)}`;
}
