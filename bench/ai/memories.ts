/**
 * Agent Learning on held-out mail, through the real path: sign-in at the emulator, the user
 * writing to half of the senders from the app (they become correspondents), the held-out sets'
 * mail delivered to the mailbox, synced and analysed by the background job, then the memories the
 * Agent Learning card can show (contact and fact memories, GET /api/agent/memories). Issue 18's
 * target: memories about the person's own correspondents, none about one-off senders.
 *
 *   npx tsx bench/ai/memories.ts            (replaces its section of bench/RESULTS.md)
 *   npx tsx bench/ai/memories.ts --no-append
 */
import { createHash } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { agentMemories, emails } from "../../server/db/schema.ts";
import { startSyncFixture, waitUntil } from "../../server/test/sync-fixture.ts";
import { machineLine, runMain } from "../sync/report.ts";
import { replaceResultsSection } from "./results-section.ts";
import { type DirectMail, LATER_SETS, laterHeldout } from "./trust-data.ts";

const USER = "sam.taylor@gmail.com";
const HEADING = "AI: Agent Learning on held-out mail";

interface Sender {
  name: string;
  address: string;
}
interface HeldoutMail {
  from: Sender;
  subject: string;
  text: string;
}

/** Every later held-out set's mail from people and systems: direct mail and the intents sets. */
function heldoutMail(): HeldoutMail[] {
  const mail: HeldoutMail[] = [];
  for (const set of LATER_SETS) {
    mail.push(...laterHeldout<DirectMail>(set, "direct-mail").heldout);
    mail.push(...laterHeldout<HeldoutMail>(set, "actions").heldout);
  }
  return mail;
}

/**
 * Half of the senders are people the user writes to, chosen by a hash of the display name, so
 * that a name written by several addresses is on one side (fact memories may name the person).
 */
function isCorrespondent(sender: Sender): boolean {
  const digest = createHash("sha256").update(sender.name.trim().toLowerCase()).digest();
  return (digest[0] ?? 0) % 2 === 0;
}

/**
 * The senders a memory is about: the addresses it names, else the display names it names as whole
 * words, the longest only (a memory naming "Linda Park" is not about another sender called "Linda").
 */
function sendersNamed(content: string, senders: readonly Sender[]): Sender[] {
  const text = content.toLowerCase();
  const byAddress = senders.filter((s) => text.includes(s.address.toLowerCase()));
  if (byAddress.length > 0) return byAddress;
  const literal = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const byName = senders.filter(
    (s) => s.name.length > 2 && new RegExp(`\\b${literal(s.name.toLowerCase())}\\b`).test(text),
  );
  const longest = Math.max(0, ...byName.map((s) => s.name.length));
  return byName.filter((s) => s.name.length === longest);
}

async function main(): Promise<void> {
  const mail = heldoutMail();
  const f = await startSyncFixture("pglite");
  try {
    const { token, accountId, userId } = await f.signIn("gmail", USER);
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${f.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await res.json()) as unknown;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };

    // The bench measures learning, not the provider's quota: the emulator's limits are off.
    await f.admin("PUT", "mail/faults", {
      gmailQuota: { enabled: false },
      graphThrottle: { enabled: false },
    });
    const senders = [...new Map(mail.map((m) => [m.from.address.toLowerCase(), m.from])).values()];
    const correspondents = senders.filter(isCorrespondent);
    // The user has written to them before their mail arrives, from the app, as people do.
    for (const to of correspondents) {
      await api("POST", "/api/emails/send", {
        to: to.address,
        subject: "Catching up",
        body: `Hi ${to.name.split(" ")[0]}, good to be in touch. Speak soon.`,
      });
    }
    // Gmail pushes inbox changes only; the sync a push starts reads the sent mail's history too.
    await f.admin("POST", `mailboxes/${encodeURIComponent(USER)}/messages`, {
      from: { name: "Bench", address: "bench@example.org" },
      subject: "Start",
      text: "The bench starts here.",
    });
    await waitUntil(
      async () => {
        const sent = await f.database.database.db
          .select({ id: emails.id })
          .from(emails)
          .where(and(eq(emails.userId, userId), eq(emails.isSent, true)));
        return sent.length >= correspondents.length;
      },
      120_000,
      "sent mail to be synced",
    );

    for (const m of mail) {
      const res = await f.admin("POST", `mailboxes/${encodeURIComponent(USER)}/messages`, {
        from: m.from,
        subject: m.subject,
        text: m.text,
      });
      if (res.status !== 201) throw new Error(`delivery failed: ${res.text}`);
    }
    const started = performance.now();
    await waitUntil(
      async () => {
        const rows = await f.rows(accountId);
        return rows.filter((r) => !r.isSent).length >= mail.length + 1;
      },
      300_000,
      "held-out mail to be synced",
    );
    await waitUntil(
      async () => {
        const left = await f.database.database.db
          .select({ id: emails.id })
          .from(emails)
          .where(and(eq(emails.accountId, accountId), isNull(emails.aiAnalysis)));
        return left.length === 0;
      },
      600_000,
      "every email to be analysed",
    );
    const seconds = (performance.now() - started) / 1000;

    const { memories: listed } = (await api("GET", "/api/agent/memories")) as {
      memories: Array<{ kind: string; content: string }>;
    };
    // The API lists the newest 500; the card picks from those, and any stored memory can become
    // one of the newest, so every stored memory is measured.
    const memories = await f.database.database.db
      .select({ kind: agentMemories.kind, content: agentMemories.content })
      .from(agentMemories)
      .where(eq(agentMemories.userId, userId));
    // What the Agent Learning card chooses from (web/src/features/ai/ai-api.ts correspondentMemories).
    const shown = memories.filter((m) => m.kind === "contact" || m.kind === "fact");
    const isOneOff = (s: Sender) => !correspondents.includes(s);
    let aboutOneOff = 0;
    let unattributed = 0;
    const learnt = new Set<Sender>();
    const factsAbout = new Set<Sender>();
    for (const m of shown) {
      const named = sendersNamed(m.content, senders);
      if (named.length === 0) unattributed += 1;
      if (named.some(isOneOff)) {
        aboutOneOff += 1;
        if (process.env.DEBUG_MEMORIES) console.error(m.kind, m.content, named);
      }
      for (const s of named) {
        if (isOneOff(s)) continue;
        learnt.add(s);
        if (m.kind === "fact") factsAbout.add(s);
      }
    }
    const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);
    const section = [
      `## ${HEADING}`,
      "",
      machineLine(),
      "",
      "`npx tsx bench/ai/memories.ts`. The real path: sign-in at the emulator as Sam, the user writes from the app " +
        `to ${correspondents.length} of the ${senders.length} senders of the held-out sets' direct mail and intents ` +
        `(sets ${LATER_SETS.join(", ")}; chosen by a hash of the sender's name), then the ${mail.length} held-out mails ` +
        "arrive, are synced and analysed by the background job (local engine, PGlite), and every stored memory of " +
        "the kinds the Agent Learning card chooses from (contact and fact) is read from the database: " +
        "GET /api/agent/memories lists the newest 500, and any stored memory can become one of those. A memory is " +
        "about a sender when it names their address or display name. Issue 18's target: memories about the " +
        'person\'s own correspondents, none about one-off senders. There is no "before" figure: before issue 18 ' +
        "the analyzer learnt about every sender, and its app is not in the history in a form this bench can drive.",
      "",
      "| measure | figure | target |",
      "| --- | --- | --- |",
      `| Memories the card can choose from (contact and fact, all stored) | ${shown.length} |  |`,
      `| ... of which GET /api/agent/memories lists (newest 500 of every kind) | ${listed.filter((m) => m.kind === "contact" || m.kind === "fact").length} |  |`,
      `| ... about a one-off sender (the user never wrote to them) | ${aboutOneOff} (${pct(aboutOneOff, shown.length)}) | 0 |`,
      `| ... naming no sender of the set | ${unattributed} |  |`,
      `| Correspondents the agent learnt something about | ${learnt.size} of ${correspondents.length} (${pct(learnt.size, correspondents.length)}) | higher |`,
      `| ... a fact from their mail (not only "You write to") | ${factsAbout.size} of ${correspondents.length} (${pct(factsAbout.size, correspondents.length)}) | higher |`,
      `| Sync and analysis of the ${mail.length} mails | ${seconds.toFixed(1)} s |  |`,
    ].join("\n");
    if (!process.argv.includes("--no-append")) replaceResultsSection(HEADING, section);
    console.log(section);
  } finally {
    await f.close();
  }
}

runMain(main);
