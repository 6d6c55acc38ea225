/**
 * Queries and mutations for achievements and the leaderboard (spec section 7, contract/game.ts).
 * Only types come from the contract, so zod stays out of the dashboard chunk.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type {
  BadgeProgress,
  BadgeTier,
  Leaderboard,
  LeaderboardSettings,
} from "../../../../contract/game.ts";
import { apiRequest } from "../../lib/api.ts";

export const BADGES_KEY = ["/api/badges/progress"] as const;
export const LEADERBOARD_KEY = ["/api/leaderboard"] as const;
export const LEADERBOARD_SETTINGS_KEY = ["/api/user/leaderboard-settings"] as const;

/** Spec section 9: the leaderboard is refetched every 60 s. */
export const LEADERBOARD_REFETCH_MS = 60_000;
/** PATCH /api/user/display-name accepts at most this many characters (contract DISPLAY_NAME_MAX). */
export const DISPLAY_NAME_MAX = 40;

export const TIER_LABELS: Record<BadgeTier, string> = {
  bronze: "Bronze",
  silver: "Silver",
  gold: "Gold",
  platinum: "Platinum",
};

export function useBadgeProgress() {
  return useQuery<BadgeProgress | null>({ queryKey: BADGES_KEY });
}

export function useLeaderboard(enabled = true) {
  return useQuery<Leaderboard | null>({
    queryKey: LEADERBOARD_KEY,
    refetchInterval: LEADERBOARD_REFETCH_MS,
    enabled,
  });
}

export function useLeaderboardSettings() {
  return useQuery<LeaderboardSettings | null>({ queryKey: LEADERBOARD_SETTINGS_KEY });
}

export function useUpdateDisplayName() {
  const queryClient = useQueryClient();
  return useMutation<{ displayName: string }, Error, string>({
    mutationFn: (displayName) => apiRequest("PATCH", "/api/user/display-name", { displayName }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: LEADERBOARD_KEY });
      void queryClient.invalidateQueries({ queryKey: LEADERBOARD_SETTINGS_KEY });
    },
  });
}

export function useUpdateLeaderboardSettings() {
  const queryClient = useQueryClient();
  return useMutation<
    LeaderboardSettings,
    Error,
    { showOnLeaderboard?: boolean; timeZone?: string },
    { previous: LeaderboardSettings | null | undefined }
  >({
    mutationFn: (change) => apiRequest("PATCH", "/api/user/leaderboard-settings", change),
    // The switch shows the choice at once (a controlled checkbox would otherwise snap back until
    // the server answers) and returns to the stored value if the server refuses it.
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: LEADERBOARD_SETTINGS_KEY });
      const previous = queryClient.getQueryData<LeaderboardSettings | null>(LEADERBOARD_SETTINGS_KEY);
      if (previous) queryClient.setQueryData(LEADERBOARD_SETTINGS_KEY, { ...previous, ...change });
      return { previous };
    },
    onError: (_err, _change, context) => {
      if (context?.previous) queryClient.setQueryData(LEADERBOARD_SETTINGS_KEY, context.previous);
    },
    onSuccess: (settings) => {
      queryClient.setQueryData(LEADERBOARD_SETTINGS_KEY, settings);
      void queryClient.invalidateQueries({ queryKey: LEADERBOARD_KEY });
    },
  });
}

/** Tells the server the browser's time zone, in which inbox-zero days and streaks are counted. */
export function useTimeZoneSync(): void {
  const settings = useLeaderboardSettings();
  const update = useUpdateLeaderboardSettings();
  const stored = settings.data?.timeZone;
  const { mutate } = update;
  useEffect(() => {
    if (!stored) return;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && zone !== stored) mutate({ timeZone: zone });
  }, [stored, mutate]);
}

/** "1st Place", "2nd Place", "3rd Place" (spec section 2); other ranks show "#n". */
export function placeLabel(rank: number): string {
  if (rank === 1) return "1st Place";
  if (rank === 2) return "2nd Place";
  if (rank === 3) return "3rd Place";
  return `#${rank}`;
}
