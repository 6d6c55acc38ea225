/** A full-screen sheet on phones, a centred dialog from the sm breakpoint up. */
export const SHEET_CONTENT =
  "fixed inset-0 z-50 flex h-dvh w-full flex-col bg-white shadow-xl focus:outline-none sm:inset-auto sm:top-1/2 sm:left-1/2 sm:h-auto sm:max-h-[90vh] sm:w-[calc(100vw-2rem)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl";

export const OVERLAY = "fixed inset-0 z-40 bg-slate-900/40";

const btn =
  "inline-flex items-center justify-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60";
export const BTN_SECONDARY = `${btn} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;
export const BTN_PRIMARY = `${btn} bg-brand-600 text-white hover:bg-brand-700`;
export const BTN_DANGER = `${btn} border border-red-200 bg-white text-red-700 hover:bg-red-50`;
