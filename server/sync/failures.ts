import { eq } from "drizzle-orm";
import { syncStates } from "../db/schema.ts";
import { classifyFailure } from "../jobs/retry-policy.ts";
import type { SyncContext } from "./context.ts";

/** The ProviderError a DomainError from the token service carries, or the error itself. */
function carried(err: unknown): unknown {
  if (err instanceof Error && err.cause && typeof err.cause === "object" && "kind" in err.cause)
    return err.cause;
  return err;
}

/** The failure kind of anything a sync step threw (house style 5: by kind, never by text). */
export function failureOf(err: unknown) {
  return classifyFailure(carried(err));
}

// Stored errors are for the UI and support: fixed phrases per kind, never provider text that
// might quote mail content or a token.
const MESSAGES = {
  reauth: "The account needs to be reconnected.",
  rate_limit: "The provider asked us to slow down; sync will continue shortly.",
  transient: "The provider did not answer; sync will retry.",
  permanent: "The provider refused a sync request.",
} as const;

/**
 * Records a failed sync step. Returns true when the job should be retried by the queue
 * (rate limits after the provider's delay, transient failures with backoff), false when only
 * the user (reauth) or a code change (permanent) can help.
 */
export async function recordFailure(ctx: SyncContext, accountId: string, err: unknown): Promise<boolean> {
  const failure = failureOf(err);
  const status =
    failure.kind === "reauth" ? "reauth_required" : failure.kind === "permanent" ? "error" : undefined;
  await ctx.db
    .update(syncStates)
    .set({ lastError: MESSAGES[failure.kind], ...(status ? { status } : {}), updatedAt: ctx.clock.now() })
    .where(eq(syncStates.accountId, accountId));
  ctx.log.warn(
    { accountId, kind: failure.kind, error: err instanceof Error ? err.name : "unknown" },
    "sync step failed",
  );
  return failure.kind === "rate_limit" || failure.kind === "transient";
}
