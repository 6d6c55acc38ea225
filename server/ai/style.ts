import type { EmailRow } from "./email-source.ts";
import type { Observation } from "./memory-service.ts";

const GREETINGS = /^(hi|hello|hey|dear|good morning|good afternoon|morning)\b/i;
const SIGN_OFFS =
  /^(best regards|kind regards|warm regards|regards|best|cheers|thanks|thank you|many thanks|sincerely|all the best|talk soon)[,!.]?$/i;

/**
 * What the user's own sent mail teaches: who they write to (contacts that matter) and how they
 * open and close (style). Only these short markers are kept, never the text.
 */
export function learnStyle(sent: readonly EmailRow[]): Observation[] {
  const out: Observation[] = [];
  for (const row of sent) {
    if (!row.isSent) continue;
    for (const r of row.toRecipients.slice(0, 5)) {
      if (!r.address) continue;
      out.push({
        kind: "contact",
        key: r.address,
        content: `You write to ${r.name ? `${r.name} <${r.address}>` : r.address}`,
        source: "sent",
        mailAt: row.receivedAt,
      });
    }
    const lines = (row.bodyText ?? "")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith(">"));
    const first = lines[0] ?? "";
    const greeting = GREETINGS.exec(first)?.[1]?.toLowerCase();
    if (greeting)
      out.push({
        kind: "style",
        key: `greeting:${greeting}`,
        content: `You open emails with "${greeting}"`,
        source: "sent",
        mailAt: row.receivedAt,
      });
    const signOff = lines.slice(-4).find((l) => SIGN_OFFS.test(l));
    if (signOff) {
      const s = signOff.replace(/[,!.]$/, "").toLowerCase();
      out.push({
        kind: "style",
        key: `signoff:${s}`,
        content: `You sign off with "${s}"`,
        source: "sent",
        mailAt: row.receivedAt,
      });
    }
  }
  return out;
}
