import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { emails, syncStates } from "../db/schema.ts";
import { interactiveLoad } from "../lib/interactive-load.ts";
import { GMAIL_COSTS } from "../providers/gmail/costs.ts";
import type { MailProviderClient, MessagePage } from "../providers/mail-provider.ts";
import { BACKFILL_PAGE_SIZE, FIRST_PAGE_SIZE, type SyncContext } from "./context.ts";
import { type Lease, LeaseLostError, loadState, syncQueued } from "./sync-state.ts";
import type { SyncAccount } from "./types.ts";
import { removeByProviderIds, upsertPage } from "./upsert.ts";

/** Rows a pass did not see are checked one by one up to this many; beyond, they are dropped. */
const VERIFY_UNSEEN_LIMIT = 100;

/** A backfill page should take about this long to fetch: the lease changes hands only between pages. */
const PAGE_TARGET_MS = 400;
const MIN_PAGE_SIZE = 25;
/**
 * While the API is busy a page is stored in transactions of this many rows, one per turn of the
 * interactive load: on PGlite a 500-row transaction holds the one database thread for hundreds of
 * milliseconds, and every list query waits behind it (decision 0081).
 */
export const BUSY_STORE_CHUNK = 50;

/**
 * The largest Gmail page the per-user quota pays for within PAGE_TARGET_MS (25 at 15,000 units a
 * minute). Our limiter lets ten seconds' worth of quota through at once, so page times alone would
 * let pages grow during that burst and the first page after it would take seconds.
 */
export function gmailPageCap(unitsPerMinute: number): number {
  const units = (unitsPerMinute / 60_000) * PAGE_TARGET_MS - GMAIL_COSTS.messagesList;
  const size = Math.floor(units / GMAIL_COSTS.messagesGet);
  return Math.min(BACKFILL_PAGE_SIZE, Math.max(MIN_PAGE_SIZE, size));
}

/**
 * How many messages a backfill asks for per page, learned from how long pages take: pages grow
 * up to `max` while the provider answers fast and shrink when its latency makes them slow, so a
 * sync waiting for the account waits for about one short page at most.
 */
export class PagePacer {
  size: number;
  constructor(readonly max = BACKFILL_PAGE_SIZE) {
    this.size = Math.min(FIRST_PAGE_SIZE, max);
  }

  /** Records that `count` messages took `ms` to fetch and picks the next size. */
  took(count: number, ms: number): void {
    if (ms > PAGE_TARGET_MS) this.size = Math.max(MIN_PAGE_SIZE, Math.floor((count * PAGE_TARGET_MS) / ms));
    else if (ms < PAGE_TARGET_MS / 2) this.size = Math.min(this.max, Math.max(this.size, count * 2));
  }
}

/**
 * Continues the running pass page by page for about `budgetMs`, then hands the account back.
 * When a sync (e.g. a push) is queued for the account, it hands the lease over after the page in
 * hand instead ("yielded"): the pass resumes from its stored page token afterwards. Each page and
 * its page token are stored in one transaction, so a killed process resumes at the next page.
 */
export async function runBackfill(
  ctx: SyncContext,
  account: SyncAccount,
  client: MailProviderClient,
  lease: Lease,
  budgetMs: number,
  pacer: PagePacer = new PagePacer(),
): Promise<"done" | "more" | "yielded"> {
  const started = Date.now();
  // The next page is fetched while the current one is written: the provider's latency and our
  // database work overlap. A fetched page is always stored before returning, so no quota is wasted.
  let prefetched: { token: string; page: Promise<FetchedPage> } | undefined;
  for (;;) {
    const state = await loadState(ctx.db, account.id);
    if (!state || state.generation === 0) return "done";
    if (state.backfillDone) return "done";
    const token = state.backfillPageToken;
    if (!token) {
      await finishPass(ctx, account, client, state.generation);
      return "done";
    }
    const since = state.backfillSince ? { since: state.backfillSince } : {};
    const fetchPage = (pageToken: string) => paced(ctx, pacer, client, { pageToken, ...since });
    const pagePromise = prefetched?.token === token ? prefetched.page : fetchPage(token);
    prefetched = undefined;
    const { page, fetchedAt } = await pagePromise;
    const next = page.nextPageToken ?? null;
    // Asked before fetching further: a sync waiting for this account gets the lease after this page.
    const syncWaiting = await syncQueued(ctx.db, account.id);
    if (next && !syncWaiting && Date.now() - started < budgetMs) {
      const ahead = fetchPage(next);
      // Awaited on the next turn; a failure here must not become an unhandled rejection meanwhile.
      ahead.catch(() => undefined);
      prefetched = { token: next, page: ahead };
    }
    // Rows before the page's last chunk go in transactions of their own while the API is busy.
    // Each checks that the pass is still this one under the same row lock the final
    // compare-and-set takes, so a restarted pass never sees rows of the old one written late.
    let rest = page.messages;
    while (rest.length > BUSY_STORE_CHUNK && interactiveLoad.busy()) {
      await interactiveLoad.turn();
      const chunk = rest.slice(0, BUSY_STORE_CHUNK);
      const still = await ctx.db.transaction(async (tx) => {
        if (!(await passUnchanged(tx, account.id, state.generation, token, lease.owner))) return false;
        await upsertPage(tx, account, chunk, state.generation, fetchedAt);
        return true;
      });
      if (!still) throw new LeaseLostError("the pass changed under this backfill");
      rest = rest.slice(BUSY_STORE_CHUNK);
    }
    await interactiveLoad.turn();
    const stored = await ctx.db.transaction(async (tx) => {
      // Compare-and-set on (generation, page token): a pass restarted meanwhile wins.
      const updated = await tx
        .update(syncStates)
        .set({
          backfillPageToken: next,
          syncedCount: sql`${syncStates.syncedCount} + ${page.messages.length}`,
          totalEstimate: sql`greatest(coalesce(${syncStates.totalEstimate}, 0), ${syncStates.syncedCount} + ${page.messages.length})`,
          updatedAt: ctx.clock.now(),
        })
        .where(
          and(
            eq(syncStates.accountId, account.id),
            eq(syncStates.generation, state.generation),
            sql`${syncStates.backfillPageToken} is not distinct from ${token}`,
            eq(syncStates.leaseOwner, lease.owner),
          ),
        )
        .returning({ accountId: syncStates.accountId });
      if (updated.length === 0) return false;
      await upsertPage(tx, account, rest, state.generation, fetchedAt);
      return true;
    });
    if (!stored) throw new LeaseLostError("the pass changed under this backfill");
    if (!next) {
      await finishPass(ctx, account, client, state.generation);
      return "done";
    }
    if (!(await lease.renew())) throw new LeaseLostError("sync lease lost during backfill");
    // A fetched page still waiting to be stored is stored first (it is never prefetched once a
    // sync is known to wait).
    if (prefetched) continue;
    if (syncWaiting) return "yielded";
    if (Date.now() - started >= budgetMs) return "more";
  }
}

/** Locks the account's sync state if its pass, page and lease are still these. */
async function passUnchanged(
  tx: Db,
  accountId: string,
  generation: number,
  token: string,
  leaseOwner: string,
): Promise<boolean> {
  const rows = await tx
    .select({ accountId: syncStates.accountId })
    .from(syncStates)
    .where(
      and(
        eq(syncStates.accountId, accountId),
        eq(syncStates.generation, generation),
        sql`${syncStates.backfillPageToken} is not distinct from ${token}`,
        eq(syncStates.leaseOwner, leaseOwner),
      ),
    )
    .for("update");
  return rows.length > 0;
}

interface FetchedPage {
  page: MessagePage;
  /** When the page was asked for: its data is at least this old (upsertPage). */
  fetchedAt: Date;
}

/** Lists one page at the pacer's size and tells the pacer how long it took. */
async function paced(
  ctx: SyncContext,
  pacer: PagePacer,
  client: MailProviderClient,
  opts: { pageToken: string; since?: Date },
): Promise<FetchedPage> {
  const fetchedAt = ctx.clock.now();
  const started = Date.now();
  const page = await client.listMessages({ ...opts, pageSize: pacer.size });
  // What came back, not what was asked: Graph pages follow links whose size was fixed earlier.
  pacer.took(Math.max(1, page.messages.length), Date.now() - started);
  return { page, fetchedAt };
}

/**
 * Ends a complete pass. Rows no page of this pass (nor any incremental change since it began)
 * saw are probably gone at the provider; offset-paged listings can skip an item when mail is
 * deleted mid-pass, so a few are asked about one by one before anything is deleted.
 */
export async function finishPass(
  ctx: SyncContext,
  account: SyncAccount,
  client: MailProviderClient,
  generation: number,
): Promise<void> {
  // A row whose write-back awaits settling is the settler's to check (a late Graph move re-keys it).
  const unseenWhere = and(
    eq(emails.accountId, account.id),
    lt(emails.syncGeneration, generation),
    isNull(emails.writePendingAt),
  );
  const unseen = await ctx.db
    .select({ providerId: emails.providerId })
    .from(emails)
    .where(unseenWhere)
    .limit(VERIFY_UNSEEN_LIMIT + 1);
  let removed = 0;
  if (unseen.length <= VERIFY_UNSEEN_LIMIT) {
    const gone: string[] = [];
    for (const { providerId } of unseen) {
      const fetchedAt = ctx.clock.now();
      const message = await client.getMessage(providerId);
      if (message) await upsertPage(ctx.db, account, [message], generation, fetchedAt);
      else gone.push(providerId);
    }
    removed = await removeByProviderIds(ctx.db, account.id, gone);
  } else {
    removed = (await ctx.db.delete(emails).where(unseenWhere).returning({ id: emails.id })).length;
  }
  await ctx.db
    .update(syncStates)
    .set({
      backfillDone: true,
      backfillPageToken: null,
      status: "idle",
      // The pass is over: what it counts is what is stored now, not the provider's figure.
      totalEstimate: sql`(select count(*)::int from ${emails} where ${emails.accountId} = ${account.id})`,
      lastSyncedAt: ctx.clock.now(),
      updatedAt: ctx.clock.now(),
    })
    .where(and(eq(syncStates.accountId, account.id), eq(syncStates.generation, generation)));
  ctx.log.info({ accountId: account.id, generation, removed }, "sync pass complete");
}
