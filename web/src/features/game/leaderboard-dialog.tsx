import { Dialog, Tabs } from "radix-ui";
import { useId, useState } from "react";
import type { LeaderboardEntry } from "../../../../contract/game.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { Pictogram, type PictogramName } from "../../components/ui/pictogram.tsx";
import { useChosenValue } from "../../lib/use-chosen-value.ts";
import { BTN_PRIMARY, BTN_SECONDARY, OVERLAY } from "../reader/dialog-classes.ts";
import { SheetDialog } from "../reader/sheet-dialog.tsx";
import {
  DISPLAY_NAME_MAX,
  placeLabel,
  useLeaderboard,
  useLeaderboardSettings,
  useUpdateDisplayName,
  useUpdateLeaderboardSettings,
} from "./game-api.ts";
import { GAME_TAB, GamePanelLoading, type GamePanelProps } from "./game-panel.tsx";

/** Ranks 1 to 3 get their own icon (spec section 2): a crown, a silver and a bronze medal. */
const PODIUM: Record<number, { icon: PictogramName; colour: string; style: string }> = {
  1: { icon: "crown", colour: "text-yellow-600", style: "border-yellow-300 bg-yellow-50" },
  2: { icon: "medal", colour: "text-slate-500", style: "border-slate-300 bg-slate-50" },
  3: { icon: "medal", colour: "text-amber-700", style: "border-amber-300 bg-amber-50" },
};
const OFF_PODIUM = { icon: "medal", colour: "text-slate-400", style: "border-slate-200 bg-white" } as const;
const TOP_CARDS = 3;

const number = (n: number) => n.toLocaleString();

/** The Leaderboard Rankings modal: Global Rankings and My Profile (spec section 2). */
export function LeaderboardDialog({ open, onOpenChange }: GamePanelProps) {
  return (
    <SheetDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Leaderboard Rankings"
      description="Points for processed mail, badges and inbox-zero streaks."
    >
      {() => <LeaderboardBody />}
    </SheetDialog>
  );
}

function LeaderboardBody() {
  const board = useLeaderboard();
  if (board.isPending) return <GamePanelLoading />;
  // A failed background refetch keeps showing the last answer; no answer at all is the failure.
  if (!board.data)
    return (
      <p className="text-sm text-red-800" role="alert">
        Unable to load leaderboard
      </p>
    );
  const { topUsers, totalUsers, currentUser } = board.data;
  return (
    <Tabs.Root defaultValue="global">
      <Tabs.List aria-label="Leaderboard" className="flex gap-1 border-b border-slate-200">
        <Tabs.Trigger value="global" className={GAME_TAB}>
          Global Rankings
        </Tabs.Trigger>
        <Tabs.Trigger value="profile" className={GAME_TAB}>
          My Profile
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="global" className="space-y-4 pt-4">
        <p className="text-sm text-slate-600">
          {number(totalUsers)} {totalUsers === 1 ? "person" : "people"} ranked
        </p>
        {topUsers.length === 0 ? (
          <p className="text-sm text-slate-600">Nobody is on the ranking yet.</p>
        ) : (
          <>
            <ol aria-label="Top performers" className="grid gap-2 sm:grid-cols-3">
              {topUsers.slice(0, TOP_CARDS).map((e) => (
                <TopCard key={e.userId} entry={e} isMe={e.userId === currentUser.userId} />
              ))}
            </ol>
            <ol
              aria-label="Full rankings"
              className="divide-y divide-slate-100 rounded-xl border border-slate-200"
            >
              {topUsers.map((e) => (
                <RankingRow key={e.userId} entry={e} isMe={e.userId === currentUser.userId} />
              ))}
            </ol>
          </>
        )}
        {topUsers.some((e) => e.userId === currentUser.userId) ? null : (
          <div>
            <p className="mb-1 text-xs font-medium text-slate-600">Your place</p>
            <ol className="rounded-xl border border-brand-200">
              <RankingRow entry={currentUser} isMe />
            </ol>
          </div>
        )}
      </Tabs.Content>
      <Tabs.Content value="profile" className="pt-4">
        <MyProfile me={currentUser} totalUsers={totalUsers} />
      </Tabs.Content>
    </Tabs.Root>
  );
}

function TopCard({ entry, isMe }: { entry: LeaderboardEntry; isMe: boolean }) {
  const podium = PODIUM[entry.rank] ?? OFF_PODIUM;
  return (
    <li className={`rounded-xl border p-3 text-center ${podium.style}`} data-testid="top-card">
      <Pictogram name={podium.icon} className={`mx-auto h-8 w-8 ${podium.colour}`} />
      <p className="text-sm font-semibold text-slate-900">{placeLabel(entry.rank)}</p>
      <p className="truncate text-sm text-slate-800">
        {entry.displayName}
        {isMe ? " (you)" : ""}
      </p>
      <p className="text-xs text-slate-600">{number(entry.score)} points</p>
    </li>
  );
}

/**
 * One place in the ranking. On a phone the row takes two lines: place, name and score, then the
 * status flag, streak and badges, so neither the flag nor those figures is cut short or hidden.
 */
function RankingRow({ entry, isMe }: { entry: LeaderboardEntry; isMe: boolean }) {
  const podium = PODIUM[entry.rank];
  return (
    <li
      className={`flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm ${isMe ? "bg-brand-50" : ""}`}
      data-testid="ranking-row"
      aria-current={isMe ? "true" : undefined}
    >
      <span className="inline-flex w-24 shrink-0 items-center gap-1 font-semibold text-slate-700">
        {podium ? <Pictogram name={podium.icon} className={`h-4 w-4 shrink-0 ${podium.colour}`} /> : null}
        {placeLabel(entry.rank)}
      </span>
      <span className="min-w-0 flex-1 truncate text-slate-900" data-testid="ranking-name">
        {entry.displayName}
        {isMe ? " (you)" : ""}
      </span>
      <span className="order-3 shrink-0 font-medium text-slate-900 sm:order-5">
        {number(entry.score)}
        <span className="sr-only"> points</span>
      </span>
      <span className="order-4 flex basis-full flex-wrap items-center gap-x-3 gap-y-1 pl-[6.75rem] text-xs text-slate-600 sm:basis-auto sm:pl-0">
        {entry.isFoundingMember ? <Flag text="Founding Member" /> : null}
        {entry.isEarlyAdopter && !entry.isFoundingMember ? <Flag text="Early Adopter" /> : null}
        <span
          className="inline-flex items-center gap-1 whitespace-nowrap"
          title="Current inbox-zero streak"
          data-testid="ranking-streak"
        >
          <Pictogram name="flame" className="h-4 w-4 text-orange-500" />
          {entry.inboxZeroStreak} {entry.inboxZeroStreak === 1 ? "day" : "days"}
        </span>
        <span
          className="inline-flex items-center gap-1 whitespace-nowrap"
          title="Badges earned"
          data-testid="ranking-badges"
        >
          <Pictogram name="medal" className="h-4 w-4 text-brand-600" />
          {number(entry.totalBadgesEarned)} {entry.totalBadgesEarned === 1 ? "badge" : "badges"}
        </span>
      </span>
    </li>
  );
}

function Flag({ text }: { text: string }) {
  return (
    <span className="whitespace-nowrap rounded-full bg-brand-100 px-2 py-0.5 text-xs font-medium text-brand-900">
      {text}
    </span>
  );
}

function MyProfile({ me, totalUsers }: { me: LeaderboardEntry; totalUsers: number }) {
  const [editing, setEditing] = useState(false);
  const settings = useLeaderboardSettings();
  const update = useUpdateLeaderboardSettings();
  const hidden = settings.data?.showOnLeaderboard === false;
  const facts: Array<[string, string]> = [
    ["Rank", hidden ? `#${me.rank} (hidden)` : `#${me.rank} of ${number(totalUsers)}`],
    ["Score", number(me.score)],
    ["Inbox-zero streak", `${me.inboxZeroStreak} ${me.inboxZeroStreak === 1 ? "day" : "days"}`],
    ["Best streak", `${me.bestInboxZeroStreak} ${me.bestInboxZeroStreak === 1 ? "day" : "days"}`],
    ["Badges earned", number(me.totalBadgesEarned)],
    ["Emails processed", number(me.totalEmailsProcessed)],
    ["Joined", new Date(me.joinedDate).toLocaleDateString(undefined, { dateStyle: "long" })],
  ];
  return (
    <section aria-label="My profile" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="text-lg font-semibold text-slate-900" data-testid="my-display-name">
            {me.displayName}
          </p>
          <p className="text-sm">
            {me.isFoundingMember ? <Flag text="Founding Member" /> : null}
            {me.isEarlyAdopter && !me.isFoundingMember ? <Flag text="Early Adopter" /> : null}
          </p>
        </div>
        <button type="button" className={BTN_SECONDARY} onClick={() => setEditing(true)}>
          Edit Name
        </button>
      </div>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {facts.map(([term, value]) => (
          <div key={term} className="rounded-xl bg-slate-50 p-3">
            <dt className="text-xs text-slate-600">{term}</dt>
            <dd className="font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <ShowOnLeaderboardSwitch
        checked={!hidden}
        disabled={!settings.data || update.isPending}
        onChange={(show) => update.mutate({ showOnLeaderboard: show })}
      />
      <EditNameDialog open={editing} onOpenChange={setEditing} current={me.displayName} />
    </section>
  );
}

/** The privacy switch, also in Settings (spec: a person can hide from the global ranking). */
export function ShowOnLeaderboardSwitch({
  checked,
  disabled,
  onChange,
}: {
  checked: boolean;
  disabled: boolean;
  onChange: (show: boolean) => void;
}) {
  const id = useId();
  const [shown, choose] = useChosenValue(checked, disabled);
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        className="mt-1 h-4 w-4 accent-brand-600"
        checked={shown}
        disabled={disabled}
        onChange={(e) => {
          choose(e.target.checked);
          onChange(e.target.checked);
        }}
      />
      <label htmlFor={id} className="text-sm text-slate-800">
        Show me on the global leaderboard
        <span className="block text-xs text-slate-600">
          When off, others do not see you and you are not counted; you still see your own place.
        </span>
      </label>
    </div>
  );
}

function EditNameDialog({
  open,
  onOpenChange,
  current,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  current: string;
}) {
  const [value, setValue] = useState(current);
  const save = useUpdateDisplayName();
  const id = useId();
  const trimmed = value.trim();
  const change = (next: boolean) => {
    if (next) {
      setValue(current);
      save.reset();
    }
    onOpenChange(next);
  };
  return (
    <DialogRoot open={open} onOpenChange={change}>
      <Dialog.Portal>
        <Dialog.Overlay className={`${OVERLAY} z-50`} />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-slate-900">Edit Name</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            The name others see on the leaderboard. Not your email address.
          </Dialog.Description>
          <form
            className="mt-4 space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              if (!trimmed) return;
              save.mutate(trimmed, { onSuccess: () => onOpenChange(false) });
            }}
          >
            <label htmlFor={id} className="block text-sm font-medium text-slate-800">
              Display name
            </label>
            <input
              id={id}
              value={value}
              maxLength={DISPLAY_NAME_MAX}
              onChange={(e) => setValue(e.target.value)}
              className="w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
            />
            <p className="text-xs text-slate-600">
              {trimmed.length} / {DISPLAY_NAME_MAX}
            </p>
            {save.isError ? (
              <p className="text-sm text-red-800" role="alert">
                {save.error.message}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <Dialog.Close type="button" className={BTN_SECONDARY}>
                Cancel
              </Dialog.Close>
              <button type="submit" className={BTN_PRIMARY} disabled={!trimmed || save.isPending}>
                Save
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

/** Settings > Leaderboard: hide from the global ranking. */
export function LeaderboardPrivacySetting() {
  const settings = useLeaderboardSettings();
  const update = useUpdateLeaderboardSettings();
  return (
    <section aria-labelledby="leaderboard-setting" className="mt-6 border-t border-slate-200 pt-4">
      <h3 id="leaderboard-setting" className="mb-2 text-sm font-semibold text-slate-900">
        Leaderboard
      </h3>
      <ShowOnLeaderboardSwitch
        checked={settings.data?.showOnLeaderboard !== false}
        disabled={!settings.data || update.isPending}
        onChange={(show) => update.mutate({ showOnLeaderboard: show })}
      />
    </section>
  );
}
