import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { toastWhenFree } from "../../components/ui/toast-store.ts";
import { BADGES_KEY, useBadgeProgress } from "./game-api.ts";

const seenKey = (userId: string) => `mailwise:badges-seen:${userId}`;
/** Actions often come in bursts (keyboard triage): one refetch after the burst. */
const REFRESH_DELAY_MS = 800;

function readSeen(userId: string): Set<string> | null {
  try {
    const raw = localStorage.getItem(seenKey(userId));
    return raw === null ? null : new Set(JSON.parse(raw) as string[]);
  } catch {
    return null;
  }
}

function writeSeen(userId: string, ids: string[]): void {
  try {
    localStorage.setItem(seenKey(userId), JSON.stringify(ids));
  } catch {
    // storage unavailable: the toast may repeat next time, nothing else breaks
  }
}

/**
 * Shows a toast when a badge is newly earned. The server decides what is earned; after any
 * successful action (archive, star, AI help...) the progress is read again, and badges not seen
 * before in this browser are announced. The first read in a browser only remembers.
 */
export function useNewBadgeToasts(userId: string): void {
  const queryClient = useQueryClient();
  const progress = useBadgeProgress();

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = queryClient.getMutationCache().subscribe((event) => {
      if (event.type !== "updated" || event.mutation.state.status !== "success") return;
      clearTimeout(timer);
      timer = setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: BADGES_KEY }),
        REFRESH_DELAY_MS,
      );
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [queryClient]);

  const earned = progress.data?.earnedBadges;
  useEffect(() => {
    if (!earned) return;
    const seen = readSeen(userId);
    writeSeen(
      userId,
      earned.map((b) => b.id),
    );
    if (seen === null) return;
    const fresh = earned.filter((b) => !seen.has(b.id));
    const newest = fresh[0];
    if (!newest) return;
    toastWhenFree({
      title: `Badge earned: ${newest.name}`,
      description:
        fresh.length > 1 ? `${newest.description} (and ${fresh.length - 1} more)` : newest.description,
    });
  }, [earned, userId]);
}
