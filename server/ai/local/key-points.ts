import type { EmailFeatures } from "./features.ts";
import type { AttachmentInfo } from "./security/attachments.ts";
import type { UrgencyResult } from "./urgency.ts";

/**
 * Up to 3 key points: the concrete facts a reader scans for (deadline, amount, attachment,
 * the question asked), then the most informative sentences not already in the summary.
 */

const MAX_POINTS = 3;
const MAX_LENGTH = 140;
const AMOUNT = /(?:[$€£]\s?\d[\d,]*(?:\.\d{2})?|\b\d[\d,]*(?:\.\d{2})?\s?(?:USD|EUR|GBP|dollars|euros)\b)/i;

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > MAX_LENGTH ? `${t.slice(0, MAX_LENGTH - 1).trimEnd()}…` : t;
}

export function keyPoints(
  features: EmailFeatures,
  urgency: UrgencyResult,
  summary: string,
  attachments: readonly AttachmentInfo[],
): string[] {
  const points: string[] = [];
  const add = (point: string) => {
    const p = clip(point);
    if (p && points.length < MAX_POINTS && !points.includes(p)) points.push(p);
  };
  if (urgency.deadline) add(`Deadline: ${urgency.deadline.text}`);
  const amount = AMOUNT.exec(`${features.subject}\n${features.text.slice(0, 3000)}`);
  if (amount) add(`Amount mentioned: ${amount[0].trim()}`);
  const files = attachments.map((a) => a.filename).filter(Boolean);
  if (files.length > 0) {
    add(
      `Attachment${files.length > 1 ? "s" : ""}: ${files.slice(0, 3).join(", ")}${files.length > 3 ? "…" : ""}`,
    );
  }
  const question = features.sentences.find((s) => /\?\s*$/.test(s.text) && /\b(you|your)\b/i.test(s.text));
  if (question && !summary.includes(question.text.trim())) add(`Question: ${question.text}`);
  for (const sentence of features.sentences.slice(1, 25)) {
    if (points.length >= MAX_POINTS) break;
    const text = sentence.text.trim();
    const words = sentence.types.filter((t) => t === "word").length;
    if (words < 5 || words > 35 || summary.includes(text)) continue;
    const informative =
      sentence.entities.length > 0 ||
      /\b(please|need|must|will|should|attached|confirm|decided|agreed)\b/i.test(text);
    if (informative) add(text);
  }
  return points;
}
