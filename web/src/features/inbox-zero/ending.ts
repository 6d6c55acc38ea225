import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import type { BadgeProgress } from "../../../../contract/game.ts";
import type { EmailStats } from "../../../../contract/mail.ts";
import { STATS_KEY } from "../../lib/mail-queries.ts";
import { BADGES_KEY } from "../game/game-api.ts";
import { playChime } from "./chime.ts";

/** The 'Inbox Zero Master' badge (server/game/catalogue.ts): inbox zero reached once. */
export const INBOX_ZERO_BADGE_ID = "inbox-zero-1";

/**
 * How a run of Inbox Zero mode ended, as the server tells it. "inbox-zero": no unread mail is left;
 * `badge` says whether the server counts 'Inbox Zero Master' as earned, and whether that happened
 * in this run ("unlocked") or before ("held"). "handled": every card is done but mail is still
 * unread (starred and flagged mail stays unread), or the server could not be asked (`unread` null).
 */
export type InboxZeroEnding =
  | { kind: "inbox-zero"; badge: "unlocked" | "held" | null }
  | { kind: "handled"; unread: number | null };

function holdsBadge(progress: BadgeProgress | null | undefined): boolean | null {
  if (!progress) return null;
  return progress.earnedBadges.some((b) => b.id === INBOX_ZERO_BADGE_ID && b.earnedAt !== null);
}

/** Fresh from the server (the caches are updated too), or null when the read fails. */
async function fresh<T>(queryClient: QueryClient, queryKey: readonly string[]): Promise<T | null> {
  try {
    return await queryClient.fetchQuery<T | null>({ queryKey, staleTime: 0 });
  } catch (err) {
    console.error("Inbox Zero: could not read how the run ended", err);
    return null;
  }
}

/** Asks the server whether the inbox is at zero and whether the badge is earned. */
export async function readEnding(
  queryClient: QueryClient,
  heldBefore: boolean | null,
): Promise<InboxZeroEnding> {
  const [stats, progress] = await Promise.all([
    fresh<EmailStats>(queryClient, STATS_KEY),
    fresh<BadgeProgress>(queryClient, BADGES_KEY),
  ]);
  if (!stats) return { kind: "handled", unread: null };
  if (stats.unreadCount > 0) return { kind: "handled", unread: stats.unreadCount };
  const earned = holdsBadge(progress);
  return { kind: "inbox-zero", badge: earned ? (heldBefore ? "held" : "unlocked") : null };
}

/**
 * The end of Inbox Zero mode for the dashboard: `opened` notes whether the badge was held when the
 * mode opened, `finished` asks the server how it ended and sets `ending` (the chime plays only for
 * a real inbox zero), `clear` when the end screen has gone.
 */
export function useInboxZeroEnding() {
  const queryClient = useQueryClient();
  const [ending, setEnding] = useState<InboxZeroEnding | null>(null);
  const heldBefore = useRef<boolean | null>(null);

  const opened = useCallback(() => {
    heldBefore.current = holdsBadge(queryClient.getQueryData<BadgeProgress | null>(BADGES_KEY));
  }, [queryClient]);

  const finished = useCallback(async () => {
    const end = await readEnding(queryClient, heldBefore.current);
    setEnding(end);
    if (end.kind === "inbox-zero") playChime();
  }, [queryClient]);

  const clear = useCallback(() => setEnding(null), []);
  return { ending, opened, finished, clear };
}
