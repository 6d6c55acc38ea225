import { and, desc, eq } from "drizzle-orm";
import type { ResponseStyle, Tone } from "../../../contract/ai.ts";
import type { Db } from "../../db/client.ts";
import { agentDrafts, mailAccounts } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { syncAccountOf } from "../../mail/accounts.ts";
import type { ProviderClientFactory } from "../../sync/types.ts";
import type { AgentService } from "../agent-service.ts";
import { ignoredCategory, isVip } from "../analysis-context.ts";
import { loadEmail } from "../email-source.ts";
import type { UsageRecorder } from "../usage.ts";
import type { DraftingService } from "./drafting-service.ts";

const STYLE_FOR_TONE: Record<Tone, ResponseStyle> = {
  Professional: "professional",
  Formal: "professional",
  Friendly: "friendly",
  Warm: "friendly",
  Casual: "brief",
};

function replySubject(subject: string): string {
  return /^\s*re\s*:/i.test(subject) ? subject : `Re: ${subject}`;
}

/**
 * The agent's own replies: with auto_draft on, a reply draft is saved in the user's mailbox
 * (the provider's createDraft); with auto_send on it is sent instead, but only to VIP contacts
 * and never for ignored categories. One attempt per email: the agent_drafts row claims it.
 */
export function createAutoDrafter(deps: {
  db: Db;
  clock: Clock;
  agents: AgentService;
  drafting: DraftingService;
  usage: UsageRecorder;
  providerClient: ProviderClientFactory;
}) {
  const { db } = deps;

  return {
    async draftFor(userId: string, emailId: string): Promise<"drafted" | "sent" | "skipped"> {
      const agent = await deps.agents.settings(userId);
      const behavior = agent?.preferences.email_behavior;
      if (!agent || !behavior || (!behavior.auto_draft && !behavior.auto_send)) return "skipped";
      const row = await loadEmail(db, userId, emailId).catch(() => undefined);
      if (!row) return "skipped";
      const category = row.aiAnalysis?.category;
      if (
        row.aiAnalysis?.skipped ||
        (typeof category === "string" && ignoredCategory(category as never, agent.preferences))
      ) {
        return "skipped";
      }
      const [account] = await db
        .select()
        .from(mailAccounts)
        .where(and(eq(mailAccounts.id, row.accountId), eq(mailAccounts.userId, userId)));
      if (!account) return "skipped";
      const send = behavior.auto_send && isVip(row.fromAddress, agent.preferences);
      if (!send && !behavior.auto_draft) return "skipped";

      const claimed = await db
        .insert(agentDrafts)
        .values({
          userId,
          emailId,
          accountEmail: account.email,
          toAddress: row.fromAddress,
          subject: replySubject(row.subject),
          engine: "local",
          status: "pending",
        })
        .onConflictDoNothing({ target: agentDrafts.emailId })
        .returning({ id: agentDrafts.id });
      const claim = claimed[0];
      if (!claim) return "skipped";
      try {
        const drafts = await deps.drafting.replies(
          userId,
          emailId,
          STYLE_FOR_TONE[agent.preferences.tone_preference],
          "background",
        );
        const body = drafts.texts[0];
        if (!body) throw new Error("no reply text");
        const client = deps.providerClient(syncAccountOf(account));
        const message = {
          to: [{ name: row.fromName, address: row.fromAddress }],
          cc: [],
          bcc: [],
          subject: replySubject(row.subject),
          body,
          replyTo: {
            threadId: row.threadId,
            internetMessageId: row.internetMessageId,
            references: row.referencesHeader,
          },
        };
        const outcome = send ? await client.send(message) : await client.createDraft(message);
        await db
          .update(agentDrafts)
          .set({
            status: send ? "sent" : "drafted",
            engine: drafts.engine,
            providerDraftId: outcome.providerId,
            sentAt: send ? deps.clock.now() : null,
          })
          .where(eq(agentDrafts.id, claim.id));
        await deps.usage.conversation(userId, "auto_draft", drafts.engine, emailId);
        return send ? "sent" : "drafted";
      } catch (err) {
        // Release the claim so the job's retry can try again.
        await db.delete(agentDrafts).where(eq(agentDrafts.id, claim.id));
        throw err;
      }
    },

    /** GET /api/agent/sent-replies: every reply the agent sent by itself, newest first. */
    async sentReplies(userId: string) {
      const rows = await db
        .select()
        .from(agentDrafts)
        .where(and(eq(agentDrafts.userId, userId), eq(agentDrafts.status, "sent")))
        .orderBy(desc(agentDrafts.createdAt))
        .limit(200);
      return rows.map((r) => ({
        id: r.id,
        emailId: r.emailId,
        to: r.toAddress,
        subject: r.subject,
        engine: r.engine,
        sentAt: (r.sentAt ?? r.createdAt).toISOString(),
      }));
    },
  };
}

export type AutoDrafter = ReturnType<typeof createAutoDrafter>;
