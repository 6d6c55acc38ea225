import { Link } from "wouter";
import { Icon, type IconName } from "./icons.tsx";

export interface HeaderActions {
  onDashboard: () => void;
  onSearch: () => void;
  onBuckets: () => void;
  onAnalytics: () => void;
  onCalendar: () => void;
  onSync: () => void;
  onSettings: () => void;
  syncing: boolean;
}

function HeaderButton({
  icon,
  label,
  onClick,
  busy,
  labelHidden = false,
}: {
  icon: IconName;
  label: string;
  onClick: () => void;
  busy?: boolean;
  labelHidden?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-busy={busy || undefined}
      title={label}
      className="inline-flex shrink-0 items-center gap-1.5 rounded-lg p-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 lg:px-3"
    >
      <Icon name={icon} className={`h-5 w-5 ${busy ? "animate-spin" : ""}`} />
      <span className={labelHidden ? "sr-only" : "sr-only lg:not-sr-only"}>{label}</span>
    </button>
  );
}

/** Dashboard, Search, Buckets, Analytics, Calendar, Sync and settings (spec section 2). */
export function DashboardHeader(props: HeaderActions) {
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl items-center gap-2 px-2 py-2 sm:px-4">
        <span
          className="grid h-8 w-8 shrink-0 place-items-center rounded-lg bg-brand-600 font-bold text-white"
          aria-hidden="true"
        >
          M
        </span>
        <h1 className="sr-only sm:not-sr-only sm:mr-2 sm:text-lg sm:font-semibold sm:text-slate-900">
          Mailwise
        </h1>
        <nav aria-label="Dashboard" className="flex min-w-0 flex-1 items-center gap-0.5 overflow-x-auto">
          <HeaderButton icon="home" label="Dashboard" onClick={props.onDashboard} />
          <HeaderButton icon="search" label="Search" onClick={props.onSearch} />
          <HeaderButton icon="buckets" label="Buckets" onClick={props.onBuckets} />
          <HeaderButton icon="analytics" label="Analytics" onClick={props.onAnalytics} />
          <HeaderButton icon="calendar" label="Calendar" onClick={props.onCalendar} />
          <HeaderButton icon="sync" label="Sync" onClick={props.onSync} busy={props.syncing} />
          <HeaderButton icon="settings" label="Settings" onClick={props.onSettings} labelHidden />
        </nav>
        <Link
          href="/logout"
          className="shrink-0 rounded-lg px-2 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
        >
          Sign out
        </Link>
      </div>
    </header>
  );
}
