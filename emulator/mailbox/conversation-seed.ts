import type { Identity } from "../identities.ts";
import { composeMessage } from "./compose.ts";
import type { Address } from "./headers.ts";
import type { Mailbox, StoredMessage } from "./mailbox.ts";
import { indexHeaders } from "./message-index.ts";

/** The seeded conversation's subject, for tests and the demo. */
export const DEMO_CONVERSATION_SUBJECT = "Offsite agenda for Thursday";

/** Who the person talks with in it (an outside address: no seeded identity). */
export const DEMO_CONVERSATION_PARTNER: Address = { name: "Dana Ruiz", address: "dana.ruiz@example.org" };

const MINUTE_MS = 60_000;

/**
 * A three-message conversation in a seeded mailbox (issue 35): `other` writes, the person replies
 * (their own sent mail), `other` answers. The first message has been read and archived (no longer
 * in the inbox); the last is unread in the inbox. Threaded by In-Reply-To/References, as a real
 * exchange is, so Gmail's threadId and Graph's conversationId come from the mailbox's threading.
 */
export function seedDemoConversation(
  mailbox: Mailbox,
  identity: Identity,
  other: Address,
  now: number,
): StoredMessage[] {
  const me: Address = { name: identity.name, address: identity.email };
  const domain = other.address.split("@")[1] ?? "example.com";
  const ids = [1, 2, 3].map((n) => `<offsite-${n}.${identity.id}@${n === 2 ? "mail.local" : domain}>`);
  const steps = [
    {
      from: other,
      to: me,
      at: now - 26 * 60 * MINUTE_MS,
      text: "Hi,\n\nCould you look over the agenda for Thursday's offsite? I put the budget review first.\n\nDana",
      labels: ["CATEGORY_PERSONAL"],
    },
    {
      from: me,
      to: other,
      at: now - 3 * 60 * MINUTE_MS,
      text: "Looks good to me. Could we move the budget review after lunch?\n\nOn Thursday, Dana wrote:\n> Could you look over the agenda for Thursday's offsite?",
      labels: ["SENT"],
    },
    {
      from: other,
      to: me,
      at: now - 40 * MINUTE_MS,
      text: "Done, the budget review is at 14:00 now. See you Thursday!\n\nDana\n\nOn Thursday, you wrote:\n> Looks good to me. Could we move the budget review after lunch?",
      labels: ["INBOX", "UNREAD", "CATEGORY_PERSONAL"],
    },
  ];
  return steps.map((step, index) => {
    const raw = composeMessage({
      from: step.from,
      to: [step.to],
      subject: index === 0 ? DEMO_CONVERSATION_SUBJECT : `Re: ${DEMO_CONVERSATION_SUBJECT}`,
      text: step.text,
      date: step.at,
      messageId: ids[index],
      inReplyTo: index === 0 ? undefined : ids[index - 1],
      references: index === 0 ? undefined : ids.slice(0, index).join(" "),
    });
    return mailbox.add(
      { raw: () => raw, internalDate: step.at, labelIds: step.labels, headers: indexHeaders(raw) },
      false,
    );
  });
}
