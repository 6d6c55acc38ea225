import type { Clock } from "../clock.ts";
import { type Identity, SEEDED_IDENTITIES } from "../identities.ts";
import { seedAttachmentMail } from "./attachment-mail.ts";
import { DEMO_CONVERSATION_PARTNER, seedDemoConversation } from "./conversation-seed.ts";
import { seedFromCorpus } from "./corpus.ts";
import { seedDemoDraft } from "./draft-seed.ts";
import { type DemoMeetingPlanner, deliverDemoInvitation } from "./invitation.ts";
import { Mailbox } from "./mailbox.ts";

export interface MailboxRegistryOptions {
  /** Seed the demo identities' mailboxes from the SpamAssassin corpus (default true). */
  seedCorpus?: boolean;
  historyRetentionMs?: number;
  /** Who puts the seeded invitation's meeting in its organizer's calendar (the calendar services). */
  demoMeetings?: { readonly planner: DemoMeetingPlanner | undefined };
}

/** The demo invitation's meeting is planned in London time (its organizer's view differs). */
const DEMO_INVITATION_ZONE = "Europe/London";

export interface SeedTiming {
  readonly email: string;
  readonly messages: number;
  readonly ms: number;
}

/**
 * Each identity's mailbox, created and seeded on first use (a request, a push, an admin call),
 * so the emulator starts without reading any mail.
 */
export class MailboxRegistry {
  readonly #clock: Clock;
  readonly #options: MailboxRegistryOptions;
  #boxes = new Map<string, Mailbox>();
  readonly #created = new Set<(mailbox: Mailbox, identity: Identity) => void>();
  readonly seedTimings: SeedTiming[] = [];

  constructor(clock: Clock, options: MailboxRegistryOptions = {}) {
    this.#clock = clock;
    this.#options = options;
  }

  static keyOf(identity: Identity): string {
    return `${identity.provider}:${identity.id}`;
  }

  /** Called for every new mailbox (push delivery subscribes to its changes here). */
  onCreate(listener: (mailbox: Mailbox, identity: Identity) => void): void {
    this.#created.add(listener);
  }

  peek(identity: Identity): Mailbox | undefined {
    return this.#boxes.get(MailboxRegistry.keyOf(identity));
  }

  get(identity: Identity): Mailbox {
    const key = MailboxRegistry.keyOf(identity);
    const existing = this.#boxes.get(key);
    if (existing !== undefined) return existing;
    const mailbox = new Mailbox(key, identity.email, this.#clock, {
      historyRetentionMs: this.#options.historyRetentionMs,
    });
    const slot = SEEDED_IDENTITIES.findIndex(
      (seeded) => seeded.provider === identity.provider && seeded.id === identity.id,
    );
    if (this.#options.seedCorpus !== false && slot >= 0) {
      const started = performance.now();
      const messages = seedFromCorpus(mailbox, identity, slot, SEEDED_IDENTITIES.length, this.#clock.now());
      // And one meeting invitation from the next demo person (the reader's "Add to calendar").
      const organizer = SEEDED_IDENTITIES[(slot + 1) % SEEDED_IDENTITIES.length] ?? identity;
      deliverDemoInvitation(
        mailbox,
        identity,
        { name: organizer.name, address: organizer.email },
        DEMO_INVITATION_ZONE,
        this.#clock.now(),
        false,
        this.#options.demoMeetings?.planner,
      );
      // And a three-message conversation with the person's own reply (issue 35).
      seedDemoConversation(mailbox, identity, DEMO_CONVERSATION_PARTNER, this.#clock.now());
      // And a draft written "in Gmail/Outlook itself" for the Drafts list (issue 36).
      seedDemoDraft(mailbox, identity, DEMO_CONVERSATION_PARTNER, this.#clock.now());
      // And mail with real files (PDF, images, .docx, .zip, .ics, an inline logo, an attached .eml).
      seedAttachmentMail(
        mailbox,
        identity,
        { name: organizer.name, address: organizer.email },
        this.#clock.now(),
      );
      this.seedTimings.push({ email: identity.email, messages, ms: Math.round(performance.now() - started) });
    }
    this.#boxes.set(key, mailbox);
    for (const listener of this.#created) listener(mailbox, identity);
    return mailbox;
  }

  /** Drops one mailbox (it is re-seeded on next use) or all of them. */
  reset(identity?: Identity): void {
    if (identity === undefined) this.#boxes = new Map();
    else this.#boxes.delete(MailboxRegistry.keyOf(identity));
  }
}
