/**
 * What the game's two panels (Achievement Badges, Leaderboard Rankings) share around their own
 * content: the open state the dashboard hands them, the tab style and the waiting line.
 */

/** A game panel is open or closed by the dashboard, which holds the state. */
export interface GamePanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** A tab trigger in a game panel: underlined in the brand colour while its tab shows. */
export const GAME_TAB =
  "-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700";

/** Shown until a panel's first answer arrives; a status, so screen readers announce it. */
export function GamePanelLoading() {
  return (
    <p className="text-sm text-slate-600" role="status">
      Loading…
    </p>
  );
}
