import { Dialog, Tabs } from "radix-ui";
import { useState } from "react";
import type { Badge, BadgeProgress, BadgeTier } from "../../../../contract/game.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { Pictogram } from "../../components/ui/pictogram.tsx";
import { BTN_SECONDARY, OVERLAY } from "../reader/dialog-classes.ts";
import { SheetDialog } from "../reader/sheet-dialog.tsx";
import { TIER_LABELS, useBadgeProgress } from "./game-api.ts";
import { GAME_TAB, GamePanelLoading, type GamePanelProps } from "./game-panel.tsx";

const TIER_STYLES: Record<BadgeTier, string> = {
  bronze: "border-amber-300 bg-amber-50 text-amber-900",
  silver: "border-slate-300 bg-slate-50 text-slate-800",
  gold: "border-yellow-300 bg-yellow-50 text-yellow-900",
  platinum: "border-indigo-300 bg-indigo-50 text-indigo-900",
};
const TIERS: BadgeTier[] = ["bronze", "silver", "gold", "platinum"];
const CLOSE =
  "shrink-0 rounded-lg px-2 py-1 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600";

/** The Achievement Badges modal (spec section 2): the achievements card and its badge details. */
export function AchievementsDialog({ open, onOpenChange }: GamePanelProps) {
  return (
    <SheetDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Achievement Badges"
      description="Earned by what you really do with your mail: each email counts once."
    >
      {() => <AchievementsBody />}
    </SheetDialog>
  );
}

function AchievementsBody() {
  const progress = useBadgeProgress();
  if (progress.isPending) return <GamePanelLoading />;
  if (!progress.data) return <p className="text-sm text-slate-600">No badge data available</p>;
  return <AchievementsCard data={progress.data} />;
}

/** Spec section 2: earned count of total, counts by tier, tabs Earned (n) and Available (n). */
export function AchievementsCard({ data }: { data: BadgeProgress }) {
  const [selected, setSelected] = useState<Badge | null>(null);
  const { stats } = data;
  const tierCount: Record<BadgeTier, number> = {
    bronze: stats.bronzeBadges,
    silver: stats.silverBadges,
    gold: stats.goldBadges,
    platinum: stats.platinumBadges,
  };
  return (
    <section aria-label="Achievements" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="text-slate-900">
          <span className="text-3xl font-bold" data-testid="badges-earned">
            {stats.earnedBadges}
          </span>{" "}
          <span className="text-sm text-slate-600">of {stats.totalBadges} badges earned</span>
        </p>
        <ul aria-label="Earned by tier" className="flex flex-wrap gap-2">
          {TIERS.map((tier) => (
            <li
              key={tier}
              className={`rounded-full border px-2.5 py-0.5 text-xs font-medium ${TIER_STYLES[tier]}`}
            >
              {TIER_LABELS[tier]}: {tierCount[tier]}
            </li>
          ))}
        </ul>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label="Badges earned"
        aria-valuemin={0}
        aria-valuemax={stats.totalBadges}
        aria-valuenow={stats.earnedBadges}
      >
        <div
          className="h-full rounded-full bg-brand-600"
          style={{ width: `${stats.totalBadges ? (stats.earnedBadges / stats.totalBadges) * 100 : 0}%` }}
        />
      </div>
      <Tabs.Root defaultValue="earned">
        <Tabs.List aria-label="Badges" className="flex gap-1 border-b border-slate-200">
          <Tabs.Trigger value="earned" className={GAME_TAB}>
            Earned ({data.earnedBadges.length})
          </Tabs.Trigger>
          <Tabs.Trigger value="available" className={GAME_TAB}>
            Available ({data.availableBadges.length})
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="earned" className="pt-3">
          <BadgeGrid badges={data.earnedBadges} onOpen={setSelected} empty="No badges earned yet." />
        </Tabs.Content>
        <Tabs.Content value="available" className="pt-3">
          <BadgeGrid badges={data.availableBadges} onOpen={setSelected} empty="Every badge is earned." />
        </Tabs.Content>
      </Tabs.Root>
      <BadgeDetailDialog badge={selected} onClose={() => setSelected(null)} />
    </section>
  );
}

function BadgeGrid({
  badges,
  onOpen,
  empty,
}: {
  badges: Badge[];
  onOpen: (b: Badge) => void;
  empty: string;
}) {
  if (badges.length === 0) return <p className="text-sm text-slate-600">{empty}</p>;
  return (
    <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      {badges.map((b) => (
        <li key={b.id}>
          <button
            type="button"
            onClick={() => onOpen(b)}
            className={`flex h-full w-full flex-col items-start gap-1 rounded-xl border p-3 text-left hover:shadow focus-visible:outline-2 focus-visible:outline-brand-600 ${TIER_STYLES[b.tier]} ${b.earnedAt ? "" : "opacity-80"}`}
          >
            <Pictogram name={b.icon} className="h-7 w-7" />
            <span className="text-sm font-semibold">{b.name}</span>
            <span className="text-xs">{TIER_LABELS[b.tier]}</span>
            {b.earnedAt ? null : (
              <span className="text-xs text-slate-600">
                {b.progress.current} / {b.progress.target}
              </span>
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}

function BadgeDetailDialog({ badge, onClose }: { badge: Badge | null; onClose: () => void }) {
  return (
    <DialogRoot open={badge !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className={`${OVERLAY} z-50`} />
        <Dialog.Content
          data-testid="badge-detail"
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none"
        >
          {badge ? (
            <>
              <div className="flex items-start justify-between gap-3">
                <Pictogram name={badge.icon} className="h-10 w-10" />
                <Dialog.Close aria-label="Close" className={CLOSE}>
                  ×
                </Dialog.Close>
              </div>
              <Dialog.Title className="mt-2 text-lg font-semibold text-slate-900">{badge.name}</Dialog.Title>
              <p className="mt-1">
                <span
                  className={`rounded-full border px-2 py-0.5 text-xs font-medium ${TIER_STYLES[badge.tier]}`}
                >
                  {TIER_LABELS[badge.tier]}
                </span>
              </p>
              <Dialog.Description className="mt-3 text-sm text-slate-700">
                {badge.description}
              </Dialog.Description>
              <div className="mt-4">
                <div className="flex justify-between text-xs text-slate-600">
                  <span>Progress</span>
                  <span>
                    {badge.progress.current} / {badge.progress.target} ({badge.progress.percentage}%)
                  </span>
                </div>
                <div
                  className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100"
                  role="progressbar"
                  aria-label={`${badge.name} progress`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={badge.progress.percentage}
                >
                  <div
                    className="h-full rounded-full bg-brand-600"
                    style={{ width: `${badge.progress.percentage}%` }}
                  />
                </div>
              </div>
              <p className="mt-3 text-sm text-slate-700">
                {badge.earnedAt
                  ? `Earned on ${new Date(badge.earnedAt).toLocaleDateString(undefined, { dateStyle: "long" })}`
                  : "Not earned yet"}
              </p>
              <div className="mt-5 flex justify-end">
                <Dialog.Close className={BTN_SECONDARY}>Close</Dialog.Close>
              </div>
            </>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}
