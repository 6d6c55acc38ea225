import type { Identity } from "../identities.ts";
import { composeMessage } from "./compose.ts";
import type { Address } from "./headers.ts";
import type { Mailbox, StoredMessage } from "./mailbox.ts";

/** The seeded draft's subject, for tests and the demo. */
export const DEMO_DRAFT_SUBJECT = "Notes for the quarterly review";

/**
 * One unsent draft in a seeded mailbox, as if written in Gmail or Outlook itself (issue 36): the
 * app's Drafts list must show drafts it did not make. Seeded without history, like the rest.
 */
export function seedDemoDraft(mailbox: Mailbox, identity: Identity, to: Address, now: number): StoredMessage {
  const raw = composeMessage({
    from: { name: identity.name, address: identity.email },
    to: [to],
    subject: DEMO_DRAFT_SUBJECT,
    text: "Hi,\n\nHere are my notes before the review:\n- revenue is up\n- hiring plan slips a month\n",
    date: now - 3 * 60 * 60_000,
    messageId: `<draft-seed.${identity.id}@mail.local>`,
  });
  return mailbox.add({ raw: () => raw, internalDate: now - 3 * 60 * 60_000, labelIds: ["DRAFT"] }, false);
}
