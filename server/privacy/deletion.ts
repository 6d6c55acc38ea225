import { eq, sql } from "drizzle-orm";
import type { MailProvider } from "../../contract/auth.ts";
import { revokeGrant } from "../auth/disconnect.ts";
import type { OAuthProviders } from "../auth/oauth-clients.ts";
import type { TokenVault } from "../auth/token-vault.ts";
import type { Db } from "../db/client.ts";
import { agentDrafts, calendarIntegrations, mailAccounts, unsubscribeRequests, users } from "../db/schema.ts";
import { closePush, stopChannels } from "../sync/push-stop.ts";
import type { ProviderClientFactory } from "../sync/types.ts";

export interface DeletionReport {
  /** Grants revoked at a provider that offers revocation (Google). */
  revoked: number;
  /** Grants that could not be revoked (provider down); the tokens are deleted regardless. */
  revokeFailures: number;
  /** Push watches and subscriptions stopped. */
  watchesStopped: number;
  /** Queued jobs about the person removed from the queue. */
  jobsRemoved: number;
}

interface Log {
  warn(obj: object, msg: string): void;
}

const calendarToMail = { google: "gmail", outlook: "outlook" } as const satisfies Record<
  string,
  MailProvider
>;

/**
 * Deletes a person for good: stops every push watch or subscription (while the tokens still work),
 * revokes every grant the provider lets an app revoke (Google's revocation endpoint, for mail and
 * calendar grants; Microsoft has none for apps, so its tokens are only dropped), deletes the user
 * row (every table holding their data hangs off it with ON DELETE CASCADE; the registry test checks
 * that), removes their queued jobs and forgets their cached sessions. Provider calls are best
 * effort: an outage there must not keep the person's data here.
 */
export function createAccountDeleter(deps: {
  db: Db;
  vault: TokenVault;
  providers: OAuthProviders;
  clientFor: ProviderClientFactory;
  forgetSessions(userId: string): void;
  /** Removes the person's files on disk (compose uploads, issue 36) once their rows are gone. */
  removeFiles?(userId: string): Promise<void>;
  log: Log;
}) {
  const { db } = deps;

  /** Stops every push channel of the person's (closing push first: see push-stop.ts). */
  async function stopWatches(userId: string): Promise<number> {
    const owned = db
      .select({ id: mailAccounts.id })
      .from(mailAccounts)
      .where(eq(mailAccounts.userId, userId));
    const closed = await closePush(db, owned);
    const accounts = await db
      .select({
        id: mailAccounts.id,
        userId: mailAccounts.userId,
        provider: mailAccounts.provider,
        email: mailAccounts.email,
        displayName: mailAccounts.displayName,
      })
      .from(mailAccounts)
      .where(eq(mailAccounts.userId, userId));
    return stopChannels(
      closed,
      accounts.map((a) => ({ ...a, provider: a.provider as MailProvider })),
      deps.clientFor,
      deps.log,
    );
  }

  async function revokeAll(userId: string): Promise<{ revoked: number; failures: number }> {
    const grants: Array<{
      provider: MailProvider;
      refreshTokenCiphertext: string | null;
      accessTokenCiphertext: string;
    }> = [];
    const accounts = await db
      .select({
        provider: mailAccounts.provider,
        refreshTokenCiphertext: mailAccounts.refreshTokenCiphertext,
        accessTokenCiphertext: mailAccounts.accessTokenCiphertext,
      })
      .from(mailAccounts)
      .where(eq(mailAccounts.userId, userId));
    for (const a of accounts) grants.push({ ...a, provider: a.provider as MailProvider });
    const calendars = await db
      .select({
        provider: calendarIntegrations.provider,
        refreshTokenCiphertext: calendarIntegrations.refreshTokenCiphertext,
        accessTokenCiphertext: calendarIntegrations.accessTokenCiphertext,
      })
      .from(calendarIntegrations)
      .where(eq(calendarIntegrations.userId, userId));
    for (const c of calendars) {
      grants.push({ ...c, provider: calendarToMail[c.provider as keyof typeof calendarToMail] ?? "gmail" });
    }
    let revoked = 0;
    let failures = 0;
    for (const grant of grants) {
      if (!deps.providers[grant.provider]?.as.revocation_endpoint) continue;
      const failure = await revokeGrant(deps.providers, deps.vault, grant.provider, grant);
      if (failure) {
        failures += 1;
        deps.log.warn({ kind: failure.kind, reason: failure.message }, "token revocation failed");
      } else revoked += 1;
    }
    return { revoked, failures };
  }

  /** Every id a queued job of this person can carry in its payload. */
  async function idsOf(userId: string): Promise<string[]> {
    const ids = [userId];
    const lists = await Promise.all([
      db.select({ id: mailAccounts.id }).from(mailAccounts).where(eq(mailAccounts.userId, userId)),
      db
        .select({ id: calendarIntegrations.id })
        .from(calendarIntegrations)
        .where(eq(calendarIntegrations.userId, userId)),
      db
        .select({ id: unsubscribeRequests.id })
        .from(unsubscribeRequests)
        .where(eq(unsubscribeRequests.userId, userId)),
      db.select({ id: agentDrafts.id }).from(agentDrafts).where(eq(agentDrafts.userId, userId)),
    ]);
    for (const list of lists) for (const { id } of list) ids.push(id);
    return ids;
  }

  return {
    async deleteAccount(userId: string): Promise<DeletionReport> {
      const watchesStopped = await stopWatches(userId);
      const { revoked, failures } = await revokeAll(userId);
      const ids = await idsOf(userId);
      const jobsRemoved = await db.transaction(async (tx) => {
        await tx.delete(users).where(eq(users.id, userId));
        // Jobs not yet started whose payload names one of the person's rows (see queue.ts: the
        // payload sits under data.payload). A job already running finds its rows gone and ends.
        const removed = await tx.execute<{ id: string }>(
          sql`delete from pgboss.job where state in ('created', 'retry') and exists (
            select 1 from jsonb_each_text(coalesce(data -> 'payload', '{}'::jsonb)) as kv(key, value)
            where kv.value in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
          ) returning id`,
        );
        return rowCount(removed);
      });
      deps.forgetSessions(userId);
      await deps.removeFiles?.(userId).catch((err: unknown) =>
        // The sweep removes files no row knows, so a failure here is finished later.
        deps.log.warn({ reason: err instanceof Error ? err.message : "unknown" }, "removing files failed"),
      );
      return { revoked, revokeFailures: failures, watchesStopped, jobsRemoved };
    },
  };
}

function rowCount(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  const rows = (result as { rows?: unknown[] } | undefined)?.rows;
  return Array.isArray(rows) ? rows.length : 0;
}

export type AccountDeleter = ReturnType<typeof createAccountDeleter>;
